import ReconModel

/// `CONSENT_RESCINDED`: a parent or guardian withdrew consent for a minor's use of the app (`RESCIND_CONSENT`,
/// Notifications 2.19); the users are the ledger's users whose Apple evidence carries its `appTransactionId`.
///
/// Apple: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (`RESCIND_CONSENT`)
public struct ConsentRescinded: Sendable {
    public let code = FindingCode.consentRescinded

    /// The detector.
    public init() {}

    /// Reports the notice when it rescinds consent; `users` are the app accounts its app transaction id links.
    public func inspect(_ notice: AppleNotice, users: [String], into findings: inout FindingCollector) {
        guard notice.type == "RESCIND_CONSENT" else { return }
        findings.report(
            Finding(
                code: code, transactionID: "", userIDs: users, environment: notice.environment,
                detail: Finding.Message.rescinded(notice, users: users).text, subject: notice.uuid))
    }
}

fileprivate extension Finding.Message {
    static func rescinded(_ notice: AppleNotice, users: [String]) -> Self {
        let account = notice.appTransactionID.map { "app transaction \($0)" } ?? "an Apple Account"
        let who =
            users.isEmpty
            ? "no ledger user's evidence carries it yet"
            : "the ledger's \(users.count == 1 ? "user" : "users") \(FindingText.list(users))"
        return Self(
            "A parent or guardian withdrew consent for a minor's use of the app at "
                + "\(FindingText.timestamp(notice.signedDate)) (\(account)): \(who); stop serving the account and "
                + "follow the app's parental-consent policy")
    }
}
