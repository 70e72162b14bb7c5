import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

typealias FindingsRNG = SplitMix64

/// A generated ledger: rows, the evidence for them and the receipts they were verified with.
struct GeneratedLedger {
    var rows: [LedgerTransaction] = []
    var evidence: [String: [EvidenceRecord]] = [:]
    var receipts: [ReceiptCase] = []

    /// The detection inputs, shaped as the store streams them.
    var groups: [TransactionGroup] {
        let byTransaction = Dictionary(grouping: rows, by: \.transactionID)
        let ids = Set(byTransaction.keys).union(evidence.keys).sorted()
        return ids.map { Fx.group($0, byTransaction[$0] ?? [], evidence[$0] ?? []) }
    }

    var originals: [OriginalTransactionGroup] {
        Dictionary(grouping: rows, by: \.originalTransactionID).filter { $0.value.count >= 2 }
            .sorted { $0.key < $1.key }
            .map {
                OriginalTransactionGroup(
                    originalTransactionID: $0.key, records: $0.value.sorted { $0.recordID < $1.recordID })
            }
    }

    func findings(context: DetectionContext = Fx.context()) -> [Finding] {
        Detection.run(groups: groups, originals: originals, receipts: receipts, context: context)
    }

    /// A clean ledger of `count` rows: consistent rows with matching trusted evidence, including
    /// subscription renewals, restores recorded at price 0, refunds marked invalid, Sandbox tests,
    /// purchases within their grace periods and a yen storefront.
    static func clean(count: Int, seed: UInt64) -> GeneratedLedger {
        var rng = FindingsRNG(seed: seed)
        var ledger = GeneratedLedger()
        var nextID: UInt64 = 2_000_000_000_000

        func newID() -> String {
            nextID += 1
            return String(nextID)
        }

        while ledger.rows.count < count {
            let user = "user\(Int.random(in: 0..<3_000, using: &rng))"
            let ago = Int64.random(in: 2 * Fx.day...(90 * Fx.day), using: &rng)
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<55:
                let japan = Bool.random(using: &rng)
                let product = japan || Bool.random(using: &rng) ? "gems100" : "gems500"
                let price =
                    japan
                    ? Money(milliunits: 1_500_000, currency: "JPY")
                    : (product == "gems100" ? Fx.usd(9_990) : Fx.usd(49_990))
                ledger.purchase(
                    id: newID(), user: user, product: product, ago: ago, price: price,
                    storefront: japan ? "JPN" : "USA", rng: &rng)
            case 55..<70:
                let original = newID()
                ledger.purchase(id: original, user: user, product: "premium", ago: ago, price: Fx.usd(4_990), rng: &rng)
                if Bool.random(using: &rng) {
                    ledger.purchase(
                        id: newID(), user: user, product: "premium", original: original, ago: ago / 2,
                        price: Fx.usd(0), rng: &rng)
                }
            case 70..<85:
                let original = newID()
                var start = ago
                ledger.purchase(
                    id: original, user: user, product: "monthly", ago: start, price: Fx.usd(2_990), rng: &rng)
                for _ in 0..<Int.random(in: 0...3, using: &rng) where start > 32 * Fx.day {
                    start -= 30 * Fx.day
                    ledger.purchase(
                        id: newID(), user: user, product: "monthly", original: original, ago: start,
                        price: Fx.usd(2_990), rng: &rng)
                }
            case 85..<92:
                ledger.purchase(
                    id: newID(), user: user, product: "gems100", ago: ago, price: Fx.usd(9_990), refunded: true,
                    rng: &rng)
            case 92..<97:
                ledger.purchase(
                    id: newID(), user: user, product: "gems100", ago: ago, price: Fx.usd(9_990), env: .sandbox,
                    rng: &rng
                )
            default:
                // Bought minutes ago: not yet delivered or verified, all within their grace periods.
                let id = newID()
                ledger.rows.append(
                    Fx.row(
                        "rec-\(id)", tx: id, user: user, ago: Int64.random(in: 1...30, using: &rng) * Fx.minute,
                        status: .pending, delivered: false, receipt: "rc-\(id)"))
                ledger.receipts.append(Fx.receipt("rc-\(id)", uploader: user, claimed: .production))
            }
        }
        return ledger
    }

    /// Adds one consistent purchase: its row, trusted evidence and its receipt.
    mutating func purchase(
        id: String, user: String, product: String, original: String? = nil, ago: Int64, price: Money,
        storefront: String = "USA", env: StoreEnvironment = .production, refunded: Bool = false,
        rng: inout FindingsRNG
    ) {
        let row = Fx.row(
            "rec-\(id)", tx: id, user: user, product: product, original: original, ago: ago, env: env, price: price,
            storefront: storefront, status: refunded ? .invalid : .verified, receipt: "rc-\(id)")
        rows.append(row)
        var entry = EvidenceEntry(
            transactionID: id, originalTransactionID: original ?? id, productID: product, quantity: 1,
            purchaseDate: row.purchaseDate, price: price.milliunits == 0 ? nil : price, storefront: storefront,
            productType: Fx.appleType(product), environment: env, bundleID: Fx.bundle)
        if refunded { entry.cancellationDate = row.purchaseDate + Fx.day }
        let record: EvidenceRecord
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            record = EvidenceRecord(
                entry: entry, source: .offline, receiptID: "rc-\(id)", receiptFormat: .signedTransaction,
                bundleID: Fx.bundle, signature: .verified, uploaderUserID: user, recordedAt: Fx.asOf - Fx.day)
        case 1:
            entry.environment = nil
            entry.price = nil
            record = EvidenceRecord(
                entry: entry, source: .verifyReceipt, receiptID: "rc-\(id)", receiptFormat: .appReceipt,
                environment: env, bundleID: Fx.bundle, appleStatus: 0, uploaderUserID: user,
                recordedAt: Fx.asOf - Fx.day)
        default:
            record = EvidenceRecord(entry: entry, source: .serverAPI, bundleID: Fx.bundle, recordedAt: Fx.asOf - Fx.day)
        }
        evidence[id, default: []].append(record)
        receipts.append(
            Fx.receipt(
                "rc-\(id)", uploader: user, claimed: env == .production ? .production : .sandbox, decodedEnv: env,
                entries: [entry], appleStatus: record.source == .verifyReceipt ? 0 : nil, records: [row]))
    }
}

@Suite struct CleanLedgerTests {
    @Test(arguments: [UInt64(1), 20_261_118])
    func cleanLedgerHasNoFindings(seed: UInt64) {
        let ledger = GeneratedLedger.clean(count: 10_000, seed: seed)
        #expect(ledger.rows.count >= 10_000)
        #expect(ledger.originals.count > 100)
        let findings = ledger.findings()
        #expect(findings.isEmpty, "\(findings.count) findings, first: \(findings.prefix(3).map(\.detail))")
    }

    /// One defect planted in a clean ledger, and the finding it must cause.
    enum Defect: String, CaseIterable, Sendable {
        case duplicated, undelivered, sandboxReceipt, refundStillBooked, unrecorded

        var code: FindingCode {
            switch self {
            case .duplicated: return .duplicateRecord
            case .undelivered: return .undelivered
            case .sandboxReceipt: return .sandboxInProduction
            case .refundStillBooked: return .refundedDelivered
            case .unrecorded: return .missingRecord
            }
        }

        func plant(in ledger: inout GeneratedLedger) -> String? {
            guard
                let index = ledger.rows.firstIndex(where: {
                    $0.productID == "gems100" && $0.verificationStatus == .verified && $0.environment == .production
                        && $0.deliveredAt != nil
                })
            else { return nil }
            let row = ledger.rows[index]
            switch self {
            case .duplicated:
                var copy = row
                copy.recordID += "-again"
                ledger.rows.append(copy)
            case .undelivered:
                ledger.rows[index].deliveredAt = nil
                ledger.rows[index].finishedAt = nil
            case .sandboxReceipt:
                ledger.evidence[row.transactionID] = [Fx.verifyReceipt(row.transactionID, status: 21007, env: nil)]
            case .refundStillBooked:
                ledger.evidence[row.transactionID, default: []].append(
                    Fx.serverAPI(row.transactionID, price: row.price) { $0.cancellationDate = Fx.asOf - Fx.hour })
            case .unrecorded:
                ledger.rows.remove(at: index)
            }
            return row.transactionID
        }
    }

    @Test(arguments: Defect.allCases)
    func plantedDefectIsTheOnlyFinding(_ defect: Defect) throws {
        var ledger = GeneratedLedger.clean(count: 2_000, seed: 7)
        let transactionID = try #require(defect.plant(in: &ledger))
        let findings = ledger.findings()
        #expect(findings.map(\.code) == [defect.code], "\(findings.map(\.detail))")
        #expect(findings.first?.transactionID == transactionID)
    }
}
