import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run to its end with `posix_spawn` and `waitpid`: input and output through files, and
/// none of the tests' open descriptors handed on.
///
/// Foundation's `Process` is not used for this. It learns that a child ended from a socket pair
/// whose other end the child holds, and it closes in the child only the descriptors open when it
/// began. So a child started meanwhile on another thread (an import the test stops a server under,
/// the server `pg_ctl` starts) may inherit that socket, or a pipe's writing end. The waiting side
/// then waits until that other child exits: in CI a `psql` of a few milliseconds waited the whole
/// 10-minute import it ran beside.
public enum ChildProcess {
    /// What a program left.
    public struct Outcome: Sendable {
        /// The exit status; for a program a signal stopped, that signal's number.
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
    }

    /// Why a program could not be run to its end.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `executable` with `arguments` and waits for it to end.
    ///
    /// - Parameters:
    ///   - input: the program's standard input; without it, `/dev/null`.
    ///   - environment: the program's whole environment.
    ///   - directory: the program's working directory; without it, this process's.
    ///   - timeout: seconds after which the program is killed and ``Failure`` thrown; none by default.
    public static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, directory: String? = nil,
        timeout: TimeInterval? = nil
    ) throws -> Outcome {
        let base = NSTemporaryDirectory() + "iap-recon-child-" + UUID().uuidString
        let paths = (input: base + ".in", stdout: base + ".out", stderr: base + ".err")
        defer {
            for path in [paths.input, paths.stdout, paths.stderr] { try? FileManager.default.removeItem(atPath: path) }
        }
        if let input { try input.write(to: URL(fileURLWithPath: paths.input)) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : paths.input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths.stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, paths.stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let closeFrom = GlibcSpawnExtensions.addCloseFrom { _ = closeFrom(&actions, 3) }
        if let directory {
            guard let addChdir = GlibcSpawnExtensions.addChdir else {
                throw Failure(description: "this C library cannot start a program in \(directory)")
            }
            _ = addChdir(&actions, directory)
        }

        var argv = ([executable] + arguments).map { strdup($0) }
        var envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in argv + envp { free(pointer) } }
        argv.append(nil)
        envp.append(nil)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }

        let status = try wait(for: pid, executable: executable, timeout: timeout)
        return Outcome(
            status: status,
            stdout: FileManager.default.contents(atPath: paths.stdout) ?? Data(),
            stderr: FileManager.default.contents(atPath: paths.stderr) ?? Data())
    }

    /// Waits for `pid`; its exit status, or the signal that stopped it.
    private static func wait(for pid: pid_t, executable: String, timeout: TimeInterval?) throws -> Int32 {
        var status: Int32 = 0
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            var pause: UInt32 = 500
            while true {
                let waited = waitpid(pid, &status, WNOHANG)
                if waited == pid { break }
                if waited < 0 && errno != EINTR { throw Failure(description: "lost \(executable): waitpid failed") }
                if Date() >= deadline {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    let seconds = timeout.rounded() == timeout ? "\(Int(timeout))" : "\(timeout)"
                    throw Failure(description: "\(executable) did not finish within \(seconds) s")
                }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            }
        } else {
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw Failure(description: "lost \(executable): waitpid failed") }
            }
        }
        // WIFEXITED: the low seven bits are zero; then WEXITSTATUS, else WTERMSIG.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }
}

/// GNU `posix_spawn` file actions that Swift's Glibc module does not import, looked up at run time.
private enum GlibcSpawnExtensions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias Chdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34).
    static let addCloseFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29).
    static let addChdir: Chdir? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(nil, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}
