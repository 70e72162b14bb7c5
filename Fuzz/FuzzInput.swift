import Foundation

/// The readers under test read files: each input is written to one scratch file per process.
enum FuzzInput {
    static let directory = ProcessInfo.processInfo.environment["FUZZ_SCRATCH"] ?? NSTemporaryDirectory()

    static func write(_ bytes: UnsafeBufferPointer<UInt8>, suffix: String) -> String {
        let path = directory + "/iap-recon-fuzz-\(getpid()).\(suffix)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if fd >= 0, let base = bytes.baseAddress {
            _ = Foundation.write(fd, base, bytes.count)
        }
        if fd >= 0 { close(fd) }
        return path
    }
}
