import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// An exclusive lock on a store for one nightly run.
///
/// For a file it is an advisory `flock` on `<store>.lock`: the kernel releases it when the process ends,
/// however it ends, so a lock left by a killed run never blocks the next one. The file holds a
/// line saying which run holds it since when, for the error the second run prints.
///
/// For a store in PostgreSQL it is a session advisory lock on the store's connection
/// (``ReconStore/takeWriterLock(holder:)``): it goes with the connection, however the holder ends.
public final class RunLock {
    private let fd: Int32
    public let path: String
    /// The store in PostgreSQL whose advisory lock this is; nil for a file's lock.
    private let store: ReconStore?

    /// Takes the lock of `store` or fails at once: its advisory lock in PostgreSQL, else its file's lock.
    ///
    /// - Throws: ``StoreError/locked(holder:)`` naming the holder when another process has it.
    public convenience init(store: ReconStore, holder: String) throws(StoreError) {
        if store.isPostgres {
            try self.init(postgres: store, holder: holder)
        } else {
            try self.init(storePath: store.path, holder: holder)
        }
    }

    private init(postgres store: ReconStore, holder: String) throws(StoreError) {
        try store.takeWriterLock(holder: holder)
        self.store = store
        path = store.path
        fd = -1
    }

    /// Takes the lock or fails at once.
    ///
    /// - Throws: ``StoreError/locked(holder:)`` naming the holder when another process has it;
    ///   ``StoreError/cannotOpen(path:message:)`` when the lock file cannot be created.
    public init(storePath: String, holder: String) throws(StoreError) {
        path = storePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotOpen(path: path, message: String(cString: strerror(errno))) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "another process"
            throw .locked(holder: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        self.fd = fd
        store = nil
        ftruncate(fd, 0)
        let line = Array((holder + "\n").utf8)
        _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        if let store {
            store.releaseWriterLock()
            return
        }
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }
}

@available(*, unavailable)
extension RunLock: Sendable {}
