import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// What a support agent asks about.
public enum LookupSubject: Sendable, Hashable {
    case user(String)
    case transaction(String)
    case originalTransaction(String)
    /// Transactions Apple listed for an order id (resolved by the Server API beforehand).
    case order(String, transactionIDs: [String])
    /// Every user and transaction an `appTransactionId` (one per Apple Account and app) links.
    case appTransaction(String)
}

/// A support agent's view of a user or a transaction: one answer line, then a timeline.
public struct LookupReport: Sendable, Codable, Hashable {
    /// One event of the timeline.
    public struct Event: Sendable, Codable, Hashable {
        public var time: String
        public var kind: String
        public var text: String
        public var recordID: String?
        public var transactionID: String?
        /// The app account the event belongs to, where the store names one (purchases, receipts).
        public var userID: String?
    }

    /// A finding about the subject, open or resolved, with its severity and amount.
    public struct FindingLine: Sendable, Codable, Hashable {
        public var code: String
        public var severity: String
        /// The amount at stake, formatted with the currency's own decimals.
        public var amount: String?
        public var currency: String?
        public var transactionID: String
        public var detail: String
        public var firstSeen: String
        /// When a later run no longer found it; nil while open.
        public var resolvedAt: String?
    }

    /// "Was this customer charged, and did they get it?" in one line.
    public var answer: String
    public var subject: String
    public var charged: Int
    public var delivered: Int
    public var refunded: Int
    public var openFindings: Int
    public var events: [Event]
    /// Every finding about the subject, in report order (worst first).
    public var findings: [FindingLine]
    /// How fresh the store is (``freshness(_:)``); nil when not read.
    public var store: String?

    /// The text view: the answer, then one line per event.
    public func text() -> String {
        var lines = [answer] + (store.map { [$0] } ?? []) + [""]
        if events.isEmpty { lines.append("(nothing in the store)") }
        for event in events {
            lines.append(
                "\(event.time)  \(event.kind.padding(toLength: 12, withPad: " ", startingAt: 0))  \(event.text)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One notification as the timeline shows it.
    package static func describe(_ n: StoredNotification) -> String {
        let type = n.subtype.map { "\(n.type)/\($0)" } ?? n.type
        var text = "Apple notification \(type)"
        if let id = n.transactionID { text += " for transaction \(id)" }
        if let product = n.productID { text += " (\(product))" }
        text += ", signed \(Timestamp.iso(n.signedDate))"
        if let environment = n.environment { text += ", \(environment)" }
        if let revoked = n.revocationDate {
            text += "; revoked \(Timestamp.iso(revoked))" + (n.revocationType.map { " (\($0))" } ?? "")
        }
        text += renewalPreference(n) + subscriptionMeaning(n)
        text += n.source == "history" ? " — from Apple's notification history" : " — received by the webhook"
        return text
    }

    /// What a `DID_CHANGE_RENEWAL_PREF` means, as Apple documents its subtypes
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
    package static func renewalPreference(_ n: StoredNotification) -> String {
        guard n.type == "DID_CHANGE_RENEWAL_PREF" else { return "" }
        switch n.subtype {
        case "UPGRADE":
            let new = n.transactionID.map { " with transaction \($0)" } ?? ""
            return "; upgrade in effect now\(new), a new billing period; Apple refunds the unused part of the "
                + "previous period pro rata (the amount is not in Apple's notification)"
        case "DOWNGRADE": return "; downgrade from the next renewal date, nothing changes now"
        case nil: return "; renewal preference back to the current subscription (a pending downgrade cancelled)"
        default: return ""
        }
    }

    /// The JSON view, keys sorted.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}

/// Builds a ``LookupReport`` from the store alone (no network).
package enum Lookup {
    /// Everything the store knows about `subject`, as a timeline.
    ///
    /// - Parameter recognition: when given, each subscription sale also shows what of it is recognized and deferred.
    package static func build(
        _ subject: LookupSubject, store: any LookupStore, bundleIDs: Set<String> = [],
        recognition: LookupRecognition? = nil
    ) throws -> LookupReport {
        var rows: [LedgerTransaction]
        var userID: String?
        let title: String
        switch subject {
        case .user(let id):
            userID = id
            rows = try store.lookup.ledgerRows(userID: id)
            title = "user \(id)"
        case .transaction(let id):
            rows = try store.lookup.ledgerRows(transactionIDs: [id])
            rows = try store.lookup.ledgerRows(
                transactionIDs: [id], originalTransactionIDs: Array(Set(rows.map(\.originalTransactionID)))
            )
            title = "transaction \(id)"
        case .originalTransaction(let id):
            rows = try store.lookup.ledgerRows(transactionIDs: [id], originalTransactionIDs: [id])
            title = "original transaction \(id)"
        case .order(let id, let transactionIDs):
            rows = try store.lookup.ledgerRows(transactionIDs: transactionIDs)
            title = "order \(id)"
        case .appTransaction(let id):
            let linked = try appTransaction(id, store: store)
            rows = try store.lookup.ledgerRows(
                transactionIDs: linked.transactionIDs, originalTransactionIDs: linked.originalIDs)
            title = "app transaction \(id)"
        }
        var transactionIDs = Set(rows.map(\.transactionID))
        // Every original transaction the subject touches: a subscription's story is all of its transactions.
        var originals = Set(rows.map(\.originalTransactionID))
        switch subject {
        case .transaction(let id): transactionIDs.insert(id)
        case .originalTransaction(let id):
            transactionIDs.insert(id)
            originals.insert(id)
        case .order(_, let ids): transactionIDs.formUnion(ids)
        case .appTransaction(let id):
            let linked = try appTransaction(id, store: store)
            transactionIDs.formUnion(linked.transactionIDs)
            originals.formUnion(linked.originalIDs)
        case .user: break
        }
        let entitlements = try store.entitlements.entitlements(
            userID: userID, originalTransactionIDs: originals.sorted())
        originals.formUnion(entitlements.map(\.originalTransactionID))
        if case .user = subject {
        } else {
            for original in originals.sorted() {
                transactionIDs.formUnion(
                    try store.entitlements.evidence(originalTransactionID: original).map(\.entry.transactionID))
            }
        }
        let receipts = try store.lookup.receiptHeaders(ids: rows.compactMap(\.receiptID), userID: userID)
        let evidence = try store.lookup.evidence(
            transactionIDs: transactionIDs.sorted(), receiptIDs: receipts.map(\.receiptID))
        // A user's receipts may reveal purchases the ledger lacks: include those transactions.
        transactionIDs.formUnion(evidence.map(\.entry.transactionID))
        let verifications = try store.receipts.verifications(
            recordIDs: rows.map(\.recordID), receiptIDs: receipts.map(\.receiptID),
            transactionIDs: transactionIDs.sorted())
        var findings = try store.lookup.findingHistory(transactionIDs: transactionIDs.sorted(), userID: userID)
        if case .appTransaction = subject {
            // Every app account the Apple Account links: their findings too (a rescinded consent names users only).
            var seen = Set(findings.map(\.finding.fingerprint))
            for user in Set(rows.map(\.userID)).sorted() {
                for h in try store.lookup.findingHistory(transactionIDs: [], userID: user)
                where seen.insert(h.finding.fingerprint).inserted {
                    findings.append(h)
                }
            }
            findings.sort { Finding.reportOrder($0.finding, $1.finding) }
        }

        var events: [(Int64, Int, LookupReport.Event)] = []
        func add(
            _ time: Int64, _ order: Int, _ kind: String, _ text: String, record: String? = nil,
            transaction: String? = nil, user: String? = nil
        ) {
            events.append(
                (
                    time, order,
                    .init(
                        time: Timestamp.iso(time), kind: kind, text: text, recordID: record, transactionID: transaction,
                        userID: user)
                ))
        }
        for row in rows {
            let price = row.lineTotal.map { " for \($0.formatted) \($0.currency)" } ?? ""
            add(
                row.purchaseDate, 0, "purchase",
                "\(row.userID) bought \(row.productID) ×\(row.quantity)\(price) — transaction \(row.transactionID), record \(row.recordID), \(row.environment.rawValue), ledger status \(row.verificationStatus.rawValue)",
                record: row.recordID, transaction: row.transactionID, user: row.userID)
            if let delivered = row.deliveredAt {
                add(
                    delivered, 3, "delivered", "content granted for record \(row.recordID)", record: row.recordID,
                    transaction: row.transactionID)
            }
            if let finished = row.finishedAt {
                add(
                    finished, 4, "finished", "client finished transaction \(row.transactionID)", record: row.recordID,
                    transaction: row.transactionID)
            }
        }
        for receipt in receipts {
            let claimed = receipt.claimedEnvironment.map { ", claimed \($0.rawValue)" } ?? ""
            add(
                receipt.receivedAt ?? 0, 1, "receipt",
                "receipt \(receipt.receiptID) uploaded by \(receipt.userID ?? "unknown") (\(receipt.format.rawValue)\(claimed))",
                user: receipt.userID)
        }
        for v in verifications {
            let status = v.appleStatus.map { " status \($0)" } ?? ""
            let env = v.environment.map { ", \($0)" } ?? ""
            let detail = v.detail.map { " — \($0)" } ?? ""
            add(
                v.knownAt, 2, "verification",
                "\(v.source)\(status)\(env): \(v.outcome) after \(v.attempts) attempt\(v.attempts == 1 ? "" : "s")\(detail)",
                record: v.recordID, transaction: v.transactionID)
        }
        // Apple's notifications about these purchases: type, subtype and Apple's signed date.
        let notifications = try store.notifications.notifications(
            transactionIDs: transactionIDs.sorted(), originalTransactionIDs: originals.sorted())
        for n in notifications {
            add(n.signedDate, 5, "notification", LookupReport.describe(n), transaction: n.transactionID)
        }
        // Refunds only from authentic evidence for this app (a forged or foreign receipt says nothing);
        // `FAMILY_REVOKE` is Apple revoking a family member's access, not a refund.
        let evidenceContext = DetectionContext.readingEvidence(bundleIDs: bundleIDs)
        var refundedIDs = Set<String>()
        for e in RefundState.upgradesCarriedOver(evidence.filter { $0.isUsable(in: evidenceContext) && $0.isAuthentic })
        {
            let id = e.entry.transactionID
            switch RefundState.stated(by: e) {
            case .upgraded(let share, _):
                // The customer moved to a higher subscription; not a customer refund.
                guard refundedIDs.insert(id).inserted else { continue }
                let product = e.entry.productID.map { " (\($0))" } ?? ""
                let stated = share.map { "Apple states \(FindingText.percentage($0)) of its price" }
                add(
                    e.entry.cancellationDate ?? e.entry.signedDate ?? e.recordedAt, 5, "upgrade",
                    "Apple: the customer upgraded transaction \(id)\(product) to another subscription; Apple refunds "
                        + "the unused part of its period pro rata (\(stated ?? "the amount is not in Apple's data"))",
                    transaction: id)
            case .familyRevoked:
                if let date = e.entry.cancellationDate, refundedIDs.insert(id).inserted {
                    add(date, 5, "refund", "Apple revoked (Family Sharing) transaction \(id)", transaction: id)
                }
            case .refunded:
                if let date = e.entry.cancellationDate, refundedIDs.insert(id).inserted {
                    let kind = e.entry.revocationType.map { " (\($0))" } ?? ""
                    add(date, 5, "refund", "Apple refunded transaction \(id)\(kind)", transaction: id)
                }
            case .notRefunded, nil:
                continue
            }
        }
        for event in subscriptionEvents(
            evidence: evidence, entitlements: entitlements,
            statuses: try store.entitlements.subscriptionStatuses(originalTransactionIDs: originals.sorted()),
            context: DetectionContext.readingEvidence(bundleIDs: bundleIDs))
        {
            add(event.time, event.order, event.kind, event.text, transaction: event.transactionID, user: event.userID)
        }
        if let recognition {
            for r in try rescindedConsentEvents(
                transactionIDs: transactionIDs.sorted(), store: store, asOf: recognition.asOf)
            {
                add(r.time, 5, "notification", r.text)
            }
            for c in try commitmentEvents(
                originals: originals.sorted(), store: store, asOf: recognition.asOf, timeZone: recognition.timeZone)
            {
                add(c.time, 5, "commitment", c.text, transaction: c.transactionID)
            }
            let groups = transactionIDs.sorted().map { id in
                TransactionGroup(
                    transactionID: id, records: rows.filter { $0.transactionID == id },
                    evidence: evidence.filter { $0.entry.transactionID == id })
            }
            for event in recognitionEvents(groups, bundleIDs: bundleIDs, recognition: recognition) {
                add(
                    event.time, event.order, event.kind, event.text, transaction: event.transactionID,
                    user: event.userID)
            }
        }
        for h in findings {
            let f = h.finding
            let amount = f.amount.map { " [\($0.formatted) \($0.currency)]" } ?? ""
            let state = h.resolvedAt.map { " (resolved \(Timestamp.iso($0)))" } ?? ""
            add(
                h.firstSeenAt, 6, "finding",
                "\(f.code.rawValue) (\(f.severity.rawValue))\(amount): \(f.detail)\(state)",
                transaction: f.transactionID)
        }
        events.sort { ($0.0, $0.1, $0.2.text) < ($1.0, $1.1, $1.2.text) }

        // The answer: per transaction, charged (Apple confirms it, not refunded) and delivered.
        let context = DetectionContext.readingEvidence(bundleIDs: bundleIDs)
        var charged = 0
        var delivered = 0
        var refunded = 0
        var upgraded = 0
        var tests = 0
        var undelivered: [String] = []
        for id in transactionIDs.sorted() {
            let group = TransactionGroup(
                transactionID: id, records: rows.filter { $0.transactionID == id },
                evidence: evidence.filter { $0.entry.transactionID == id })
            let facts = TransactionFacts(group, in: context)
            let paid = facts.confirmedByApple || group.records.contains { $0.verificationStatus == .verified }
            guard paid else { continue }
            // A Sandbox, Xcode or LocalTesting purchase charged nobody.
            if Self.isTestPurchase(facts, group) {
                tests += 1
                continue
            }
            charged += 1
            if case .refunded = facts.refund { refunded += 1 }
            if facts.refund.isUpgraded { upgraded += 1 }
            if group.records.contains(where: { $0.deliveredAt != nil }) {
                delivered += 1
            } else if !facts.refund.isCancelled {
                undelivered.append(id)
            }
        }
        let open = findings.filter { $0.resolvedAt == nil }
        var answer = "\(title): "
        if transactionIDs.isEmpty {
            answer += "no purchases in the store"
        } else if charged == 0, tests > 0 {
            answer += "no charge: \(tests) test purchase\(tests == 1 ? "" : "s") (Sandbox)"
        } else if charged == 0 {
            answer += "no charge Apple confirms"
        } else {
            answer += "charged for \(charged) purchase\(charged == 1 ? "" : "s"), delivered \(delivered) of \(charged)"
        }
        if charged > 0, tests > 0 { answer += "; \(tests) test purchase\(tests == 1 ? "" : "s") (Sandbox), no charge" }
        if refunded > 0 { answer += "; \(refunded) refunded" }
        if upgraded > 0 { answer += "; \(upgraded) upgraded to another subscription (prorated refund by Apple)" }
        if !undelivered.isEmpty { answer += "; NOT DELIVERED: " + undelivered.joined(separator: ", ") }
        if let worst = open.first {
            answer +=
                "; \(open.count) open finding\(open.count == 1 ? "" : "s"), worst \(worst.finding.code.rawValue) (\(worst.finding.severity.rawValue))"
        }
        return LookupReport(
            answer: answer, subject: title, charged: charged, delivered: delivered, refunded: refunded,
            openFindings: open.count, events: events.map(\.2),
            findings: findings.map { h in
                LookupReport.FindingLine(
                    code: h.finding.code.rawValue, severity: h.finding.severity.rawValue,
                    amount: h.finding.amount?.formatted, currency: h.finding.amount?.currency,
                    transactionID: h.finding.transactionID, detail: h.finding.detail,
                    firstSeen: Timestamp.iso(h.firstSeenAt), resolvedAt: h.resolvedAt.map(Timestamp.iso))
            })
    }
}
