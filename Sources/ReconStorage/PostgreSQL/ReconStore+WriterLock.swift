import Foundation
import ReconModel

#if canImport(Glibc)
    import Glibc
#endif

/// The writer's lock of a store in PostgreSQL: a session advisory lock on the store's own connection, so it
/// dies with the holder's connection however the holder ends (CONTRACT §2).
extension ReconStore {
    /// The advisory lock key of the store's writer (one per database).
    static let writerLockKey: Int64 = 0x6961_7072_6563_0002

    /// Whether the store is in PostgreSQL (its writer's lock is then ``takeWriterLock(holder:)``).
    public var isPostgres: Bool { db.dialect == .postgres }

    /// Takes the writer's lock at once or fails, naming the holder.
    ///
    /// The holder's line (command, host, pid, since) is kept in `store_writer` beside the backend holding the lock,
    /// so a second writer can name it; a line whose backend no longer holds the lock names nobody.
    ///
    /// A holder killed without a word (SIGKILL) keeps the lock until its server backend notices the connection gone.
    /// When the line names a process of this host that no longer runs, the writer waits for the server to drop the
    /// lock (``deadHolderWait``), then ends that backend (`pg_terminate_backend`, allowed on a backend of one's own
    /// role) and waits again, rather than refusing: the lock is never taken from a process that still runs.
    ///
    /// - Throws: ``StoreError/locked(holder:)``.
    package func takeWriterLock(holder: String) throws(StoreError) {
        if try !tryWriterLock() {
            guard let held = try writerLockHolder() else { throw .locked(holder: Self.unnamedHolder) }
            guard Self.isDeadProcessOfThisHost(held.line) else { throw .locked(holder: held.line) }
            if try !waitForWriterLock() {
                _ = try db.scalar("SELECT pg_terminate_backend(\(held.backend))::int")
                guard try waitForWriterLock() else { throw .locked(holder: held.line) }
            }
        }
        try db.prepare(
            """
            INSERT INTO store_writer (id, holder, backend_pid) VALUES (1, $1, pg_backend_pid())
            ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, backend_pid = excluded.backend_pid
            """
        ).run([.text(holder)])
    }

    /// How long a writer waits for the server to drop the lock of a holder whose process is gone, before and after
    /// ending its backend.
    static let deadHolderWait: Duration = .seconds(5)

    private static let unnamedHolder = "another iap-recon (on another connection)"

    private func tryWriterLock() throws(StoreError) -> Bool {
        try db.scalar("SELECT pg_try_advisory_lock(\(Self.writerLockKey))") == 1
    }

    /// Tries the lock every 200 ms for ``deadHolderWait``.
    private func waitForWriterLock() throws(StoreError) -> Bool {
        let deadline = ContinuousClock.now + Self.deadHolderWait
        while ContinuousClock.now < deadline {
            usleep(200_000)
            if try tryWriterLock() { return true }
        }
        return false
    }

    /// The line and backend of the lock's holder, when its backend still holds it.
    private func writerLockHolder() throws(StoreError) -> (line: String, backend: Int64)? {
        let named = try db.prepare(
            """
            SELECT w.holder, w.backend_pid FROM store_writer w JOIN pg_locks l ON l.pid = w.backend_pid
            WHERE l.locktype = 'advisory' AND l.granted
                AND l.classid = (\(Self.writerLockKey) >> 32) AND l.objid = (\(Self.writerLockKey) & 4294967295)
            """)
        return try named.step() ? (named.text(0), named.int64(1)) : nil
    }

    /// Whether a holder's line (`iap-recon run (pid 123 on host) since …`) names a process of this host that no
    /// longer runs.
    static func isDeadProcessOfThisHost(_ line: String) -> Bool {
        guard let open = line.range(of: "(pid "),
            let on = line.range(of: " on ", range: open.upperBound..<line.endIndex),
            let close = line.range(of: ")", range: on.upperBound..<line.endIndex),
            let pid = Int32(line[open.upperBound..<on.lowerBound])
        else { return false }
        let host = String(line[on.upperBound..<close.lowerBound])
        guard host == ProcessInfo.processInfo.hostName, pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Gives the writer's lock back (it also goes with the connection).
    package func releaseWriterLock() {
        _ = try? db.scalar("SELECT pg_advisory_unlock(\(Self.writerLockKey))")
    }
}
