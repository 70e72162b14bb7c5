import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// What the support lookup shows of Apple's word as of 2026 (CONTRACT §7): the app accounts an `appTransactionId`
/// links, and where a 12-month commitment stands.
extension Lookup {
    /// The transactions and original transactions Apple's evidence showed with `appTransactionID`.
    static func appTransaction(_ appTransactionID: String, store: any LookupStore) throws -> (
        transactionIDs: [String], originalIDs: [String]
    ) {
        let links = try store.appleWord.transactions(appTransactionID: appTransactionID)
        return (links.map(\.transactionID), Array(Set(links.map(\.originalID))).sorted())
    }

    /// Apple's `RESCIND_CONSENT` about the Apple Accounts of `transactionIDs` (their evidence's app transaction ids),
    /// by the as-of: a parent or guardian withdrew consent for a minor's use of the app.
    static func rescindedConsentEvents(transactionIDs: [String], store: any LookupStore, asOf: Int64) throws -> [(
        time: Int64, text: String
    )] {
        let accounts = Set(try store.appleWord.appTransactionIDs(transactionIDs: transactionIDs))
        guard !accounts.isEmpty else { return [] }
        return try store.appleWord.notices(asOf: asOf).filter {
            $0.type == "RESCIND_CONSENT" && $0.appTransactionID.map(accounts.contains) == true
        }.map {
            (
                $0.signedDate,
                "Apple notification RESCIND_CONSENT: a parent or guardian withdrew consent for app transaction "
                    + "\($0.appTransactionID ?? "")"
            )
        }
    }

    /// One event per commitment among `originals`: "month 4 of 12, renews monthly, will not renew after July 2027".
    static func commitmentEvents(
        originals: [String], store: any LookupStore, asOf: Int64, timeZone: TimeZone
    ) throws -> [(time: Int64, text: String, transactionID: String)] {
        let wanted = Set(originals)
        let statements = try store.appleWord.commitmentStatements(asOf: asOf).filter {
            wanted.contains($0.originalTransactionID)
        }
        guard !statements.isEmpty else { return [] }
        let lines = try Commitments.lines(
            statements: statements, renewals: try store.appleWord.renewalCommitments(asOf: asOf), notices: [],
            users: { try store.appleWord.users(originalTransactionID: $0) }, asOf: asOf)
        return lines.map { line in
            let latest = statements.filter { $0.originalTransactionID == line.originalTransactionID }
                .max { ($0.purchaseDate ?? 0) < ($1.purchaseDate ?? 0) }
            return (
                latest?.purchaseDate ?? asOf, commitmentText(line, timeZone: timeZone),
                latest?.transactionID ?? line.originalTransactionID
            )
        }
    }

    /// Where one commitment stands, in a support agent's words.
    static func commitmentText(_ line: CommitmentLine, timeZone: TimeZone = .gmt) -> String {
        let price = Money(milliunits: line.commitmentPrice, currency: line.currency).formatted
        var text =
            "12-month commitment \(line.originalTransactionID) (\(price) \(line.currency)): "
            + "month \(line.currentPeriod ?? line.periodsBilled) of \(line.periodsTotal), renews monthly"
        switch line.status {
        case .ended: text = text.replacingOccurrences(of: ", renews monthly", with: "") + ", ended early"
        case .completed: text = text.replacingOccurrences(of: ", renews monthly", with: "") + ", completed"
        case .active: break
        }
        // The month of the commitment's last instant: a commitment ending at 2027-08-01T00:00 ends "after July 2027".
        let end = line.commitmentExpires.map { monthAndYear($0 - 1, timeZone: timeZone) } ?? "its last period"
        switch line.renewsAfter {
        case false?: text += ", will not renew after \(end)"
        case true?: text += ", renews after \(end)"
        case nil: break
        }
        return text
    }

    /// `July 2027`, in `timeZone`.
    static func monthAndYear(_ millis: Int64, timeZone: TimeZone = .gmt) -> String {
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let c = Timestamp.components(millis, in: timeZone)
        return "\(names[max(0, min(11, c.month - 1))]) \(c.year)"
    }
}
