import Foundation
import IAPReconTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// How the tests run programs: `psql`, `pg_ctl` and the built `iap-recon`.
@Suite struct ChildProcessTests {
    let dir = TemporaryDirectory("child-process")

    /// A program ends, and is seen to end, while other children inherit what the tests hold open.
    ///
    /// Those children are started meanwhile and inherit everything, as the server `pg_ctl` starts
    /// does. Through a pipe and Foundation's `Process`, `cat` waited for them to exit.
    @Test func aProgramEndsWhileOtherChildrenInheritWhatTheTestsHoldOpen() throws {
        let holders = ChildHolders()
        Thread { holders.keepSpawning("/bin/sleep", "20") }.start()
        defer { holders.stopAndKill() }
        for attempt in 0..<30 {
            let echoed = try ChildProcess.run("/bin/cat", [], input: Data("line \(attempt)\n".utf8), timeout: 10)
            #expect(echoed.status == 0)
            #expect(String(decoding: echoed.stdout, as: UTF8.self) == "line \(attempt)\n")
        }
        #expect(holders.count > 0)
    }

    @Test func aProgramRunsInTheGivenFolderAndASignalIsItsStatus() throws {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "pwd; echo oops >&2; kill -9 $$"], directory: dir.path)
        #expect(String(decoding: outcome.stdout, as: UTF8.self) == dir.path + "\n")
        #expect(String(decoding: outcome.stderr, as: UTF8.self) == "oops\n")
        #expect(outcome.status == SIGKILL)
    }

    @Test func aProgramThatOutlivesItsTimeoutIsKilledAndNamed() throws {
        #expect {
            try ChildProcess.run("/bin/sleep", ["30"], timeout: 0.2)
        } throws: { error in
            "\(error)" == "/bin/sleep did not finish within 0.2 s"
        }
    }
}

/// Children started with `posix_spawn` and no file actions, so they inherit every open descriptor.
private final class ChildHolders: @unchecked Sendable {
    private let lock = NSLock()
    private var pids: [pid_t] = []
    private var stopped = false

    var count: Int { lock.withLock { pids.count } }

    func keepSpawning(_ program: String, _ argument: String) {
        while !lock.withLock({ stopped }) {
            var arguments = [strdup(program), strdup(argument), nil]
            defer { for argument in arguments { free(argument) } }
            var pid = pid_t()
            if posix_spawn(&pid, program, nil, nil, &arguments, environ) == 0 {
                lock.withLock { pids.append(pid) }
            }
            usleep(200)
        }
    }

    func stopAndKill() {
        let all = lock.withLock {
            stopped = true
            return pids
        }
        for pid in all {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}
