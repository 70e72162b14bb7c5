import AppleData
import Foundation
import ReconFindings
import ReconModel
import ReconStorage

extension ReconDependencies {
    /// `iap-recon answer-consumption`: answers Apple's open consumption requests (CONTRACT §7) with Send Consumption
    /// Information V2, judged at the as-of (`--as-of`, else now).
    ///
    /// A request is answered once, only before its 12-hour deadline, only where the user consented (CONTRACT §1.10),
    /// never once Apple decided it. What is about to be sent is kept before it leaves, so a run killed in flight does
    /// not send it again; an answer Apple refused or did not take is sent again by the next run.
    ///
    /// - Parameter dryRun: print what would be sent; send and write nothing.
    /// - Returns: `done`; `findingsAtOrAboveFailOn` (exit 3) when some answers failed, one line each.
    /// - Throws: ``ConfigError`` without App Store Server API credentials (and something to send); ``StoreError``.
    public func answerConsumption(dryRun: Bool) async throws -> CommandOutput {
        let lock = dryRun ? nil : try self.lock("answer-consumption")
        defer { withExtendedLifetime(lock) {} }
        let asOf = settings.config.asOf ?? clock.nowMillis()
        let words = store.appleWord
        let requests = try ConsumptionRequests.lines(
            notices: try words.notices(asOf: asOf), store: words, catalog: try store.ledger.catalog(), asOf: asOf)
        let toSend = requests.filter { $0.isToSend(at: asOf) }
        var lines: [String] = []
        let open = requests.filter(\.isOpen)
        let late = open.filter { $0.consented == .yes && asOf >= $0.deadline }.count
        let withoutConsent = open.filter { $0.consented != .yes }.count
        func summary(_ verb: String, _ count: Int) -> String {
            "consumption requests: \(requests.count); \(verb) \(count); past the deadline \(late); "
                + "without the user's consent \(withoutConsent)"
        }
        if dryRun {
            for line in toSend {
                lines.append(
                    "would send PUT /inApps/v2/transactions/consumption/\(line.transactionID) "
                        + "(\(Self.answerEnvironment(line).rawValue)) \(line.body)")
            }
            lines.append(summary("would answer", toSend.count))
            return CommandOutput(.done, lines: lines)
        }
        guard !toSend.isEmpty else { return CommandOutput(.done, lines: [summary("answered", 0)]) }
        guard settings.serverAPIKey != nil else {
            throw ConfigError.invalid(
                key: "answer-consumption", value: "\(toSend.count) open request(s)",
                expected: "App Store Server API credentials: set IAP_RECON_API_KEY_FILE, IAP_RECON_API_KEY_ID, "
                    + "IAP_RECON_ISSUER_ID and --bundle-id")
        }
        var answered = 0
        var failures: [String] = []
        try await withAppleClients { apple in
            guard let client = apple.serverAPI else { return }
            for line in toSend {
                let answer = ConsumptionAnswer(
                    notificationUUID: line.notificationUUID, transactionID: line.transactionID, body: line.body,
                    sentAt: asOf, answeredAt: nil, httpStatus: nil, failure: nil)
                guard try words.startConsumptionAnswer(answer) else { continue }
                let result = await client.sendConsumptionInformation(
                    transactionID: line.transactionID, body: Data(line.body.utf8),
                    environment: Self.answerEnvironment(line))
                switch result {
                case .success:
                    try words.finishConsumptionAnswer(
                        notificationUUID: line.notificationUUID, httpStatus: 202, answeredAt: asOf, failure: nil)
                    answered += 1
                    lines.append("answered \(line.transactionID) (request \(line.notificationUUID)): \(line.body)")
                case .failure(let failure):
                    let code = failure.apiError.map { " error \($0.rawValue)" } ?? ""
                    let reason = "Apple answered HTTP \(failure.httpStatus)\(code)"
                    try words.finishConsumptionAnswer(
                        notificationUUID: line.notificationUUID, httpStatus: failure.httpStatus, answeredAt: nil,
                        failure: reason)
                    failures.append("failed \(line.transactionID) (request \(line.notificationUUID)): \(reason)")
                case .unreachable(let reason, let attempts):
                    let text = "Apple could not be reached (\(reason), \(attempts) attempts)"
                    try words.finishConsumptionAnswer(
                        notificationUUID: line.notificationUUID, httpStatus: nil, answeredAt: nil, failure: text)
                    failures.append("failed \(line.transactionID) (request \(line.notificationUUID)): \(text)")
                }
            }
        }
        lines += failures
        lines.append(summary("answered", answered))
        if !failures.isEmpty { lines.append("\(failures.count) answer(s) failed; the next run sends them again") }
        return CommandOutput(failures.isEmpty ? .done : .findingsAtOrAboveFailOn, lines: lines)
    }

    /// The environment to answer in: Production, else Sandbox (Xcode and StoreKit testing requests have no server).
    static func answerEnvironment(_ line: ConsumptionRequestLine) -> StoreEnvironment {
        (line.environment ?? .production).isProduction ? .production : .sandbox
    }
}
