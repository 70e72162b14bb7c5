import Foundation
import IAPRecon

/// Progress on a terminal: one line on stderr, redrawn in place; nothing when stderr is not a TTY.
enum TerminalProgress {
    static func make() -> RunProgress? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { stage, done, total in
            let text = total > 0 ? "\r\(stage): \(done)/\(total)" : "\r\(stage): \(done) rows"
            let end = total > 0 && done == total ? "\n" : ""
            FileHandle.standardError.write(Data((text + end).utf8))
        }
    }
}
