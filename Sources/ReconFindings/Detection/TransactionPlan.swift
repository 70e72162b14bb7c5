import AppleData
import Crypto
import Foundation
import ReconModel
import ReconStorage

/// Which transactions a report judges: all of them, or only those that can have changed since the last written
/// report (CONTRACT §5 "Incremental reports"), and why.
///
/// The kept results of a transaction are reused only when everything they were worked out from is as it was: its
/// rows and evidence (the store notes every change, ``Schema/incrementalDetection``), the settings and the catalog
/// (``fingerprint``), the same-purchase index entries that name it, and time (none of its moments of change passed).
/// Apple's Sales and Financial Reports compare every day and month they cover with the whole ledger: a store holding
/// one keeps each transaction's events in them (``LedgerEvent``), and the transactions with an event on a day whose
/// reports changed are judged again (the proceeds Apple states for a sale's day price it).
package struct TransactionPlan {
    /// Judge every transaction; the results replace the kept ones.
    package var everything: Bool
    /// Why every transaction is judged (nil for an incremental report), for the run record.
    package var reason: String?
    /// How many transactions are judged again (incremental reports only).
    package var rerun: Int
    /// The kept state the report builds on (incremental reports only).
    package var kept: DetectionState?
    /// What the results are worked out from: the digest the next report compares.
    package var fingerprint: String
    /// The same-purchase index as this report sees it, by transaction id.
    package var samePurchase: [String: String]

    /// Decides how `context`'s report at `context.asOf` judges the transactions of `store`.
    package static func make(
        ledger: any LedgerRepository, revenueRecords: any RevenueRepository, settings: DetectionSettings,
        context: DetectionContext, full: Bool, appleReports: Bool
    ) throws -> TransactionPlan {
        let fingerprint = Self.fingerprint(settings: settings, context: context, appleReports: appleReports)
        if appleReports { try ledger.indexLedgerByProduct() }
        let samePurchase = Self.entries(context.samePurchase)
        var plan = TransactionPlan(
            everything: true, reason: nil, rerun: 0, kept: nil, fingerprint: fingerprint, samePurchase: samePurchase)
        guard !full else { return plan.judgingEverything("asked for a full report") }
        guard let state = try revenueRecords.detectionState() else {
            return plan.judgingEverything("no earlier report of this store to build on")
        }
        guard state.fingerprint == fingerprint else {
            return plan.judgingEverything(
                "the settings, the catalog or whether Apple's reports are in the store changed since the last report")
        }
        guard context.asOf >= state.asOf else { return plan.judgingEverything("as-of earlier than the last report's") }
        let shown = try revenueRecords.samePurchaseShown()
        let changed = Set(shown.keys).union(samePurchase.keys).filter { shown[$0] != samePurchase[$0] }
        plan.rerun = try revenueRecords.prepareRerun(asOf: context.asOf, more: changed.sorted())
        let limit = settings.incrementalLimitPercent
        if limit < 100, plan.rerun * 100 > max(try revenueRecords.ledgerSizeEstimate(), 1) * limit {
            return plan.judgingEverything("more than \(limit) % of the ledger would be judged again")
        }
        plan.everything = false
        plan.kept = state
        return plan
    }

    private func judgingEverything(_ reason: String) -> TransactionPlan {
        var plan = self
        plan.everything = true
        plan.reason = reason
        plan.kept = nil
        return plan
    }

    /// A digest of what every transaction's results depend on besides its own rows: the version of these results,
    /// the thresholds, bundle ids, ledger start, time zones, revenue days, the recognition basis, the catalog, and
    /// whether the store holds Apple's reports (then each transaction's events in them are kept too).
    package static func fingerprint(settings: DetectionSettings, context: DetectionContext, appleReports: Bool)
        -> String
    {
        var text = "iap-recon detection results v1\n"
        if appleReports { text += "ledger events v1\n" }
        // Each counted sale is kept as recognition prices it (CONTRACT §5.1).
        text += "recognition sales v1 \(settings.recognitionBasis.rawValue)\n"
        text += "\(context.deliveryGraceMillis) \(context.finishGraceMillis) \(context.pendingLimitMillis)\n"
        text += context.bundleIDs.sorted().joined(separator: " ") + "\n"
        text += "\(context.ledgerStart.map(String.init) ?? "-")\n"
        text += "\(settings.timeZone.identifier) \(settings.salesReportTimeZone.identifier)\n"
        text +=
            "\(settings.revenueFrom.map(String.init) ?? "-") \(settings.revenueTo.map(String.init) ?? "-")\n"
        for productID in context.catalog.keys.sorted() {
            for product in context.catalog[productID] ?? [] { text += String(describing: product) + "\n" }
        }
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The index's entries as text, by transaction id.
    package static func entries(_ index: SamePurchaseIndex) -> [String: String] {
        index.purchases.mapValues { purchase in
            "\(purchase.primaryID)|\(purchase.bookedAt.map(String.init) ?? "-")|\(purchase.link)"
        }
    }
}
