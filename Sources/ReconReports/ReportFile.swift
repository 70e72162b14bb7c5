import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// The report folder's file operations, each failing with a ``ReportError`` naming the file.
///
/// Every report is written through ``AtomicFile``: a temporary name in the same folder, mode 0640, then a rename, so
/// a crash never leaves half a report under the final name.
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

    /// Writes `bytes` to `path` atomically with mode 0640.
    public static func write(_ bytes: [UInt8], to path: String) throws(ReportError) {
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw ReportError(error)
        }
    }

    /// Removes a report an earlier run left at `path` that this run does not write; nothing when absent.
    public static func remove(_ path: String) throws(ReportError) {
        if unlink(path) != 0, errno != ENOENT {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
