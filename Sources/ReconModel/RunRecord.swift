import Foundation

/// What one run did: written by ``RunRecorder`` to `run.json` and to the store's run log, the
/// same bytes in both.
public struct RunRecord: Sendable, Codable, Hashable {
    public struct Stage: Sendable, Codable, Hashable {
        public var name: String
        public var durationMillis: Int64
        public var counts: [String: Int]

        package init(name: String, durationMillis: Int64, counts: [String: Int]) {
            self.name = name
            self.durationMillis = durationMillis
            self.counts = counts
        }
    }

    public struct Counts: Sendable, Codable, Hashable {
        public var read = 0
        public var accepted = 0
        public var rejected = 0
        public var verified = 0
        public var invalid = 0
        public var stillPending = 0
        public var transactionsInStore = 0
        public var receiptsInStore = 0
        public var rejectedInStore = 0
        /// Rows of Apple's sales reports, on the days compared, that belong to other apps of the developer
        /// account and were left out of the comparison; absent when no day was compared.
        public var salesReportRowsOfOtherApps: Int?

        package init() {}
    }

    public var runID: Int64
    public var command: String
    public var version: String
    public var startedAt: String
    public var finishedAt: String
    public var asOf: String
    public var timeZone: String
    public var store: String
    public var outputDirectory: String?
    public var inputs: [ImportFileSummary] = []
    public var counts = Counts()
    public var stages: [Stage] = []
    public var findingsByCode: [String: Int] = [:]
    public var findingsBySeverity: [String: Int] = [:]
    public var newFindings = 0
    public var resolvedFindings = 0
    public var revenueNetByCurrency: [String: String] = [:]
    /// The notifications the store learned by the as-of, per `notificationType` as Apple wrote it (CONTRACT §7).
    public var notificationsByType: [String: Int] = [:]
    public var failOn: String?
    public var exitCode: Int32 = 0
    /// Stored values a report format could not hold (written as text instead); absent when none.
    public var warnings: [String]?
    /// Months the previous report closed whose deferred revenue this report restates (Apple's later word), one line
    /// each (CONTRACT §5.1); absent when none.
    public var deferredRevenueRestated: [String]?

    /// Pretty JSON with sorted keys, so it diffs well.
    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    package init(
        runID: Int64, command: String, version: String, startedAt: String, finishedAt: String, asOf: String,
        timeZone: String, store: String, outputDirectory: String? = nil, inputs: [ImportFileSummary] = [],
        counts: Counts = Counts(), stages: [Stage] = [], findingsByCode: [String: Int] = [:],
        findingsBySeverity: [String: Int] = [:], newFindings: Int = 0, resolvedFindings: Int = 0,
        revenueNetByCurrency: [String: String] = [:], failOn: String? = nil, exitCode: Int32 = 0,
        warnings: [String]? = nil
    ) {
        self.runID = runID
        self.command = command
        self.version = version
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.asOf = asOf
        self.timeZone = timeZone
        self.store = store
        self.outputDirectory = outputDirectory
        self.inputs = inputs
        self.counts = counts
        self.stages = stages
        self.findingsByCode = findingsByCode
        self.findingsBySeverity = findingsBySeverity
        self.newFindings = newFindings
        self.resolvedFindings = resolvedFindings
        self.revenueNetByCurrency = revenueNetByCurrency
        self.failOn = failOn
        self.exitCode = exitCode
        self.warnings = warnings
    }
}

/// The program's version, printed by `--version` and recorded in every run.
public enum IAPReconVersion {
    public static let current = "0.1.0"
}
