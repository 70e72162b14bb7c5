import Foundation

/// Writes report files atomically: a temporary name in the same folder, mode 0640, then a
/// rename, so a crash never leaves half a report under the final name.
public enum ReportFile {
    /// Creates `directory` (and parents) when missing.
    public static func ensureDirectory(_ directory: String) throws(ReportError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw .cannotCreateDirectory(path: directory, reason: "a file has that name") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: directory, reason: error.localizedDescription)
        }
    }

    /// A temporary path beside `path`.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
    }

    /// Writes `bytes` to `path` atomically with mode 0640.
    public static func write(_ bytes: [UInt8], to path: String) throws(ReportError) {
        let output = try Output(path: path)
        try output.write(bytes)
        try output.commit()
    }

    /// A report written piece by piece to a temporary file beside `path`, which ``commit()`` syncs and renames into
    /// place; dropped without ``commit()`` (an error on the way), it is removed and `path` is untouched.
    public final class Output {
        public let path: String
        private let temporary: String
        private var fd: Int32

        public init(path: String) throws(ReportError) {
            self.path = path
            temporary = ReportFile.temporaryPath(for: path)
            fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o640)
            guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        }

        deinit {
            if fd >= 0 {
                close(fd)
                unlink(temporary)
            }
        }

        /// Appends `bytes`.
        public func write(_ bytes: [UInt8]) throws(ReportError) {
            guard fd >= 0 else { throw .cannotWrite(path: path, reason: "already committed") }
            var offset = 0
            var failure: String?
            bytes.withUnsafeBytes { raw in
                while offset < raw.count {
                    let written = Foundation.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = String(cString: strerror(errno))
                        return
                    }
                    offset += written
                }
            }
            if let failure { throw .cannotWrite(path: path, reason: failure) }
        }

        /// Syncs the file and renames it over `path`.
        public func commit() throws(ReportError) {
            guard fd >= 0 else { throw .cannotWrite(path: path, reason: "already committed") }
            let synced = fsync(fd) == 0
            let failure = synced ? nil : String(cString: strerror(errno))
            close(fd)
            fd = -1
            if let failure {
                unlink(temporary)
                throw .cannotWrite(path: path, reason: failure)
            }
            try ReportFile.commit(temporary, to: path)
        }
    }

    /// Sets mode 0640 on `temporary` and renames it over `path`.
    public static func commit(_ temporary: String, to path: String) throws(ReportError) {
        chmod(temporary, 0o640)
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// Removes a report an earlier run left at `path` that this run does not write; nothing when absent.
    public static func remove(_ path: String) throws(ReportError) {
        if unlink(path) != 0, errno != ENOENT {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
