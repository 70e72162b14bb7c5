import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// A file written under a temporary name beside its final path and renamed over it at ``commit()``, so a reader or
/// a crash never sees half a file under the final name.
///
/// The temporary file `.name.tmp-PID-XXXXXXXX` is created exclusively (never following an existing name) with mode
/// 0640, whatever the umask. Bytes may be appended piece by piece with ``write(_:)``, or another writer may fill
/// ``temporaryPath`` by name. ``commit()`` syncs the file, renames it into place and syncs the folder. Dropped
/// without ``commit()`` (an error on the way), the temporary file is removed and the final path is untouched.
package final class AtomicFile {
    /// The mode of every written file: owner read/write, group read.
    package static let mode: mode_t = 0o640

    /// The final path.
    package let path: String
    /// Where the bytes go until ``commit()``.
    package let temporaryPath: String
    private var descriptor: Int32
    private var committed = false

    /// Creates the temporary file beside `path`; its folder must exist.
    ///
    /// - Throws: ``AtomicFileError`` when the temporary file cannot be created or given its mode.
    package init(path: String) throws(AtomicFileError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var lastError = ""
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
            let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(suffix)")
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, Self.mode)
            if descriptor >= 0 {
                // The umask may have cleared bits of the requested mode.
                guard fchmod(descriptor, Self.mode) == 0 else {
                    let reason = Self.errnoText()
                    close(descriptor)
                    unlink(temporary)
                    throw AtomicFileError(path: path, operation: "setting the file mode", reason: reason)
                }
                self.temporaryPath = temporary
                self.descriptor = descriptor
                return
            }
            let code = errno
            lastError = String(cString: strerror(code))
            if code != EEXIST { break }
        }
        throw AtomicFileError(path: path, operation: "creating a temporary file", reason: lastError)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporaryPath) }
    }

    /// Appends `bytes` to the temporary file.
    package func write(_ bytes: [UInt8]) throws(AtomicFileError) {
        guard descriptor >= 0 else { throw failure("writing", reason: "already committed") }
        var offset = 0
        var reason: String?
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    reason = Self.errnoText()
                    return
                }
                offset += written
            }
        }
        if let reason { throw failure("writing", reason: reason) }
    }

    /// Syncs the file, renames it over ``path`` and syncs the folder.
    package func commit() throws(AtomicFileError) {
        guard descriptor >= 0 else { throw failure("syncing the written file", reason: "already committed") }
        let synced = fsync(descriptor) == 0
        let reason = synced ? nil : Self.errnoText()
        close(descriptor)
        descriptor = -1
        if let reason { throw failure("syncing the written file", reason: reason) }
        guard rename(temporaryPath, path) == 0 else {
            throw failure("renaming the temporary file into place", reason: Self.errnoText())
        }
        committed = true
        Self.syncDirectory(of: path)
    }

    /// Writes `bytes` to `path` atomically.
    package static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        let file = try AtomicFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    private func failure(_ operation: String, reason: String) -> AtomicFileError {
        AtomicFileError(path: path, operation: operation, reason: reason)
    }

    /// Makes the rename durable; best effort, as the file is already complete and in place.
    private static func syncDirectory(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
