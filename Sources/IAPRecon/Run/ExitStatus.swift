import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// How a command ends (CONTRACT §2): the process exit code.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Done.
    case done = 0
    /// The job could not complete (I/O, store, configuration), or `--strict` and a row was rejected.
    case failed = 1
    /// Done, with findings at or above `--fail-on`.
    case findingsAtOrAboveFailOn = 3
    /// A usage error (the argument parser's own code).
    case usage = 64

    /// `findingsAtOrAboveFailOn` when a finding at or above `failOn` exists, else `done`.
    public static func forFindings(_ findings: FindingTotals, failOn: Severity?) -> ExitStatus {
        guard let failOn else { return .done }
        let atOrAbove = findings.bySeverity.contains { $0.key <= failOn && $0.value > 0 }
        return atOrAbove ? .findingsAtOrAboveFailOn : .done
    }
}

/// What a command concluded: how it ends and the lines for standard output.
public struct CommandOutput: Sendable {
    public var status: ExitStatus
    public var lines: [String]

    public init(_ status: ExitStatus, lines: [String]) {
        self.status = status
        self.lines = lines
    }

    /// The process exit code.
    public var exitCode: Int32 { status.rawValue }
}

/// Progress of a long stage: (stage, done, total); total 0 when unknown.
public typealias RunProgress = @Sendable (String, Int, Int) -> Void
