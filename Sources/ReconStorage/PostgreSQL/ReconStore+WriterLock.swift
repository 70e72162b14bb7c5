import ReconModel

/// The writer's lock of a store in PostgreSQL: a session advisory lock on the store's own connection, so it
/// dies with the holder's connection however the holder ends (CONTRACT §2).
extension ReconStore {
    /// The advisory lock key of the store's writer (one per database).
    static let writerLockKey: Int64 = 0x6961_7072_6563_0002

    /// Whether the store is in PostgreSQL (its writer's lock is then ``takeWriterLock(holder:)``).
    public var isPostgres: Bool { db.postgres != nil }

    /// Takes the writer's lock at once or fails, naming the holder.
    ///
    /// The holder's line (command, host, pid, since) is kept in `store_writer` beside the backend holding the lock,
    /// so a second writer can name it; a line whose backend no longer holds the lock names nobody.
    ///
    /// - Throws: ``StoreError/locked(holder:)``.
    package func takeWriterLock(holder: String) throws(StoreError) {
        guard try db.scalar("SELECT pg_try_advisory_lock(\(Self.writerLockKey))") == 1 else {
            let named = try db.prepare(
                """
                SELECT w.holder FROM store_writer w JOIN pg_locks l ON l.pid = w.backend_pid
                WHERE l.locktype = 'advisory' AND l.granted
                    AND l.classid = (\(Self.writerLockKey) >> 32) AND l.objid = (\(Self.writerLockKey) & 4294967295)
                """)
            let line = try named.step() ? named.text(0) : "another iap-recon (on another connection)"
            throw .locked(holder: line)
        }
        try db.prepare(
            """
            INSERT INTO store_writer (id, holder, backend_pid) VALUES (1, ?, pg_backend_pid())
            ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, backend_pid = excluded.backend_pid
            """
        ).run([.text(holder)])
    }

    /// Gives the writer's lock back (it also goes with the connection).
    package func releaseWriterLock() {
        _ = try? db.scalar("SELECT pg_advisory_unlock(\(Self.writerLockKey))")
    }
}
