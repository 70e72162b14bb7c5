import AppleData
import Foundation
import Logging
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// The commands, one call each. The executable parses flags into a ``ReconConfig``, builds the
/// ``ReconDependencies`` and calls one of these; the tests call the same.
extension ReconDependencies {
    /// `iap-recon import`: loads the files (and the queries of `database`) into the store, under the
    /// store's lock.
    public func importFiles(
        _ request: ImportRequest, database: LedgerDatabase? = nil, progress: RunProgress? = nil
    ) async throws -> CommandOutput {
        let lock = try lock("import")
        defer { withExtendedLifetime(lock) {} }
        let imported = try await importStage(progress: progress).run(
            request, database: database, in: .unrecorded(clock: clock))
        var lines = imported.lines
        lines.append("total: read \(imported.read), accepted \(imported.accepted), rejected \(imported.rejected)")
        let rejected = imported.rejected
        if rejected > 0 {
            logger.warning(
                "rows rejected; see rejected.csv after the next report", metadata: ["rejected": "\(rejected)"])
        }
        if settings.strict, rejected > 0 {
            lines.append("failing: \(rejected) row\(rejected == 1 ? "" : "s") rejected and --strict is set")
            return CommandOutput(.failed, lines: lines)
        }
        return CommandOutput(.done, lines: lines)
    }

    /// `iap-recon verify`: decodes every receipt offline, then re-verifies every pending transaction; results
    /// persisted one by one.
    ///
    /// Recorded as a run (no report files).
    public func verify(progress: RunProgress? = nil) async throws -> CommandOutput {
        warnWhenServerAPIIsOff()
        let recorder = try RunRecorder(command: "verify", self, outputDirectory: nil)
        let verified = try await decodeAndVerify(recorder, decodingRecordedAs: "decode", progress: progress)
        recorder.update { $0.counts.stillPending = (try? store.ledger.counts().pending) ?? 0 }
        try recorder.finish(.done)
        return CommandOutput(.done, lines: VerifyStage.lines(verified))
    }

    /// `iap-recon report`: detects and writes the reports from the store, without network.
    public func report() async throws -> CommandOutput {
        try await NightlyRun(self).report()
    }

    /// `iap-recon run`: the nightly job (``NightlyRun``).
    public func nightly(
        _ request: ImportRequest, database: LedgerDatabase? = nil, progress: RunProgress? = nil
    ) async throws -> CommandOutput {
        warnWhenServerAPIIsOff()
        return try await NightlyRun(self, progress: progress).run(request, database: database)
    }

    /// `iap-recon lookup`: the support view of a user, transaction or order, from the store
    /// (a read-only root: see ``answer(_:)``).
    public func lookup(_ subject: LookupSubject, json: Bool) async throws -> CommandOutput {
        let answer = try await answer(subject)
        let text = json ? answer.json() : answer.text()
        return CommandOutput(.done, lines: [String(text.dropLast())])
    }

    /// The support answer for a subject, read as one consistent snapshot of the store; the
    /// `lookup` command and the support web view both show it.
    ///
    /// An order id is first resolved to its transactions with Apple's Look Up Order ID, which
    /// needs App Store Server API credentials; everything else works offline.
    ///
    /// - Throws: ``ConfigError`` for an order id without credentials; ``StoreError`` when the
    ///   store cannot be read.
    public func answer(_ subject: LookupSubject) async throws -> LookupAnswer {
        var subject = subject
        if case .order(let orderID, _) = subject {
            guard settings.serverAPIKey != nil else {
                throw ConfigError.invalid(
                    key: "order-id", value: orderID,
                    expected: "App Store Server API credentials to look it up: set IAP_RECON_API_KEY_FILE, "
                        + "IAP_RECON_API_KEY_ID, IAP_RECON_ISSUER_ID and --bundle-id")
            }
            switch try await resolveOrder(orderID) {
            case .success(let ids): subject = .order(orderID, transactionIDs: ids)
            case .failure(let message): return .unresolvedOrder(orderID: orderID, message: message)
            }
        }
        let resolved = subject
        let bundleIDs = Set(settings.bundleIDs)
        let zone = settings.timeZone
        let asOf = settings.config.asOf ?? clock.nowMillis()
        return .report(
            try store.read {
                let recognition = LookupRecognition(asOf: asOf, timeZone: zone, catalog: try store.ledger.catalog())
                var report = try Lookup.build(resolved, store: store, bundleIDs: bundleIDs, recognition: recognition)
                report.store = LookupReport.freshness(try store.lastRun())
                return report
            })
    }

    private enum OrderResolution {
        case success([String])
        case failure(String)
    }

    /// The transactions of an order, from Look Up Order ID (signed answers verified).
    private func resolveOrder(_ orderID: String) async throws -> OrderResolution {
        try await withAppleClients { apple in
            guard let client = apple.serverAPI else { return .failure("App Store Server API is not configured") }
            switch await client.lookUpOrder(orderID: orderID) {
            case .unreachable(let reason, let attempts):
                return .failure("Apple could not be reached (\(reason), \(attempts) attempts); try again later")
            case .failure(let failure):
                let code = failure.apiError.map { " error \($0.rawValue)" } ?? ""
                return .failure("Apple answered HTTP \(failure.httpStatus)\(code)")
            case .success(let answer):
                guard answer.isValid else {
                    return .failure("Apple says this order id is not valid (status \(answer.status))")
                }
                var ids: [String] = []
                for signed in answer.signedTransactions {
                    if case .valid(let payload) = await apple.signedData.verifyAndDecodeTransaction(signed),
                        let id = payload.transactionId
                    {
                        ids.append(id)
                    }
                }
                return .success(ids)
            }
        }
    }
}
