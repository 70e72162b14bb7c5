/// What a run found, counted.
///
/// Per code: the findings, the new ones and the amount at stake per currency; and the findings the run resolved.
/// The report's summaries and the exit status come from here, never from a list of every finding.
public struct FindingTotals: Sendable, Hashable {
    /// One code's findings.
    public struct Code: Sendable, Hashable {
        public var count = 0
        /// First seen by this run.
        public var new = 0
        /// The amounts at stake per currency, in milliunits (capped, like every sum of money).
        public var amounts: [String: Int64] = [:]

        package init(count: Int = 0, new: Int = 0, amounts: [String: Int64] = [:]) {
            self.count = count
            self.new = new
            self.amounts = amounts
        }
    }

    public var byCode: [FindingCode: Code] = [:]
    /// The findings per severity (a code's severity may depend on the finding's environment, ``FindingCode/severity(in:)``).
    public var bySeverity: [Severity: Int] = [:]
    /// Findings open before this run and no longer found.
    public var resolved = 0

    public init() {}

    /// Counts one finding.
    public mutating func add(_ code: FindingCode, amount: Money?, isNew: Bool, severity: Severity? = nil) {
        bySeverity[severity ?? code.severity, default: 0] += 1
        var totals = byCode[code] ?? Code()
        totals.count += 1
        if isNew { totals.new += 1 }
        if let amount {
            totals.amounts[amount.currency] = Money.sum(totals.amounts[amount.currency] ?? 0, amount.milliunits)
        }
        byCode[code] = totals
    }

    /// Every finding of this run.
    public var count: Int { byCode.values.reduce(0) { $0 + $1.count } }

    /// The findings first seen by this run.
    public var new: Int { byCode.values.reduce(0) { $0 + $1.new } }

    /// The findings of `severity`.
    public func count(_ severity: Severity) -> Int {
        bySeverity[severity] ?? 0
    }

    /// Findings per code, codes without any left out (run.json).
    public var countsByCode: [String: Int] {
        Dictionary(uniqueKeysWithValues: byCode.filter { $0.value.count > 0 }.map { ($0.key.rawValue, $0.value.count) })
    }

    /// Findings per severity, severities without any left out (run.json).
    public var countsBySeverity: [String: Int] {
        var counts: [String: Int] = [:]
        for (severity, count) in bySeverity where count > 0 { counts[severity.rawValue] = count }
        return counts
    }
}
