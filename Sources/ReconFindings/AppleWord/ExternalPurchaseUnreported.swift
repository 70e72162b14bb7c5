import ReconModel

/// `EXTERNAL_PURCHASE_UNREPORTED`: Apple says an external purchase token was never reported to it.
///
/// Apple sends `EXTERNAL_PURCHASE_TOKEN`, subtype `UNREPORTED`: commission owed and a compliance breach. `low` for a
/// Sandbox token (``FindingCode/severity(in:)``).
///
/// Apple: https://developer.apple.com/documentation/appstoreservernotifications/notificationtype (`EXTERNAL_PURCHASE_TOKEN`)
public struct ExternalPurchaseUnreported: Sendable {
    public let code = FindingCode.externalPurchaseUnreported

    /// The detector.
    public init() {}

    /// Reports the notice when it is an unreported token.
    public func inspect(_ notice: AppleNotice, into findings: inout FindingCollector) {
        guard notice.type == "EXTERNAL_PURCHASE_TOKEN", notice.subtype == "UNREPORTED",
            let token = notice.externalPurchaseID
        else { return }
        findings.report(
            Finding(
                code: code, transactionID: token, userIDs: [], environment: notice.environment ?? .production,
                detail: Finding.Message.unreported(notice, token: token).text, subject: notice.uuid))
    }
}

fileprivate extension Finding.Message {
    static func unreported(_ notice: AppleNotice, token: String) -> Self {
        let sandbox = notice.environment.map { !$0.isProduction } ?? false
        return Self(
            "Apple says external purchase token \(token) was never reported to it (notification of "
                + "\(FindingText.timestamp(notice.signedDate))): "
                + (sandbox
                    ? "a Sandbox token, no commission is owed, but the reporting path is not working"
                    : "report it through the External Purchase Server API; commission is owed"))
    }
}
