import Foundation

extension XLSXWriter {
    /// Creates an empty `.name.tmp-PID-XXXXXXXX` file with mode 0640 next to `path`.
    ///
    /// Creating it here (exclusively, not following an existing name) rather than letting
    /// libxlsxwriter do it at close time turns a bad directory into an early, precise error.
    static func createTemporaryFile(for path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var lastError = ""
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
            let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(suffix)")
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
            if descriptor >= 0 {
                // The umask may have cleared bits of the requested mode.
                let modeSet = fchmod(descriptor, fileMode) == 0
                let modeError = errnoText()
                close(descriptor)
                guard modeSet else {
                    unlink(temporary)
                    throw XLSXError.fileSystem(path: path, operation: "setting the file mode", reason: modeError)
                }
                return temporary
            }
            let code = errno
            lastError = String(cString: strerror(code))
            if code != EEXIST { break }
        }
        throw XLSXError.fileSystem(path: path, operation: "creating a temporary file", reason: lastError)
    }

    /// Flushes the written file to disk before it is renamed into place.
    static func syncFile(_ file: String, displayPath: String) throws {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw XLSXError.fileSystem(path: displayPath, operation: "opening the written file", reason: errnoText())
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw XLSXError.fileSystem(path: displayPath, operation: "syncing the written file", reason: errnoText())
        }
    }

    /// Makes the rename durable; best effort, as the file is already complete and in place.
    static func syncDirectory(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
