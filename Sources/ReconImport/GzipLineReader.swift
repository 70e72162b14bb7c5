import AppleData
import CZlib
import Foundation
import ReconModel
import ReconStorage

/// Reads a text file line by line through zlib's `gzread`, which inflates gzip data as it goes
/// and passes a plain file through unchanged: one reader for `.txt` and `.txt.gz` alike, with
/// memory for one buffer, never the whole file.
package final class GzipLineReader {
    package let path: String
    private var handle: gzFile?
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEOF = false
    package private(set) var lineNumber = 0
    package static let chunkSize: UInt32 = 1 << 16

    /// Opens `path` for reading.
    ///
    /// - Throws: ``ImportFileError/cannotOpen(path:reason:)`` when the file cannot be opened.
    package init(path: String) throws(ImportFileError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .cannotOpen(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw .cannotOpen(path: path, reason: "is a directory") }
        guard let opened = gzopen(path, "rb") else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        handle = opened
        gzbuffer(opened, 1 << 17)
    }

    deinit {
        if let handle { gzclose_r(handle) }
    }

    /// The next line (without its line break; a trailing `\r` is dropped), or nil at the end.
    ///
    /// - Throws: ``ImportFileError/readFailed(path:reason:)`` for corrupt or truncated gzip data.
    package func nextLine() throws(ImportFileError) -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                lineNumber += 1
                return line
            }
            if atEOF {
                guard start < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = buffer.count
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    private func fill() throws(ImportFileError) {
        guard let handle else {
            atEOF = true
            return
        }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Int(Self.chunkSize)))
        let read = buffer.withUnsafeMutableBytes { raw in
            gzread(handle, raw.baseAddress.map { $0 + old }, Self.chunkSize)
        }
        if read < 0 {
            var code: Int32 = 0
            let message = gzerror(handle, &code).map { String(cString: $0) } ?? "unknown zlib error"
            buffer.removeLast(Int(Self.chunkSize))
            throw .readFailed(path: path, reason: "not readable as gzip or text (\(message))")
        }
        buffer.removeLast(Int(Self.chunkSize) - Int(read))
        if read == 0 {
            // A gzip stream cut short reads as a clean end without this check.
            var code: Int32 = 0
            _ = gzerror(handle, &code)
            if code != Z_OK && code != Z_STREAM_END {
                throw .readFailed(path: path, reason: "truncated or corrupt gzip data")
            }
            atEOF = true
        }
    }
}

@available(*, unavailable)
extension GzipLineReader: Sendable {}
