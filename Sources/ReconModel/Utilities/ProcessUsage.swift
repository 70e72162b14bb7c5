#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the process has used so far: CPU time in user space and in the kernel (`getrusage`), and bytes read and
/// written, both through system calls and from or to the storage device (Linux's `/proc/self/io`).
///
/// The difference of two readings is what a phase cost (``PhaseTimer``). Bytes through system calls count every
/// `pread` and `pwrite`, the page cache's hits too: a store that reads its own pages back over and over shows there
/// long before the device does. Where `/proc/self/io` is missing (not Linux), the byte counts stay zero.
package struct ProcessUsage: Sendable, Hashable {
    /// CPU time in user space, in microseconds.
    package var userMicros: Int64 = 0
    /// CPU time in the kernel, in microseconds.
    package var systemMicros: Int64 = 0
    /// Bytes read through system calls (`rchar`).
    package var bytesRead: Int64 = 0
    /// Bytes written through system calls (`wchar`).
    package var bytesWritten: Int64 = 0
    /// Bytes the device was asked to read (`read_bytes`).
    package var deviceRead: Int64 = 0
    /// Bytes sent towards the device (`write_bytes`).
    package var deviceWritten: Int64 = 0
    /// The largest resident set the process has had so far, in kilobytes (`ru_maxrss`): not a difference, a peak.
    package var peakResidentKilobytes: Int64 = 0

    package init() {}

    /// The process's usage now.
    package static func current() -> ProcessUsage {
        var usage = ProcessUsage()
        var raw = rusage()
        #if canImport(Glibc)
            let who = RUSAGE_SELF.rawValue
        #else
            let who = RUSAGE_SELF
        #endif
        if getrusage(Int32(who), &raw) == 0 {
            usage.userMicros = Int64(raw.ru_utime.tv_sec) * 1_000_000 + Int64(raw.ru_utime.tv_usec)
            usage.systemMicros = Int64(raw.ru_stime.tv_sec) * 1_000_000 + Int64(raw.ru_stime.tv_usec)
            usage.peakResidentKilobytes = Int64(raw.ru_maxrss)
        }
        for line in procSelfIO().split(separator: "\n") {
            let field = line.split(separator: ":", maxSplits: 1)
            guard field.count == 2, let value = Int64(field[1].drop { $0 == " " }) else { continue }
            switch field[0] {
            case "rchar": usage.bytesRead = value
            case "wchar": usage.bytesWritten = value
            case "read_bytes": usage.deviceRead = value
            case "write_bytes": usage.deviceWritten = value
            default: break
            }
        }
        return usage
    }

    /// What was used between `earlier` and this reading, with the peak resident set by then.
    package func since(_ earlier: ProcessUsage) -> ProcessUsage {
        var spent = ProcessUsage()
        spent.userMicros = userMicros - earlier.userMicros
        spent.systemMicros = systemMicros - earlier.systemMicros
        spent.bytesRead = bytesRead - earlier.bytesRead
        spent.bytesWritten = bytesWritten - earlier.bytesWritten
        spent.deviceRead = deviceRead - earlier.deviceRead
        spent.deviceWritten = deviceWritten - earlier.deviceWritten
        spent.peakResidentKilobytes = peakResidentKilobytes
        return spent
    }

    /// The text of `/proc/self/io` (its size reads as zero, so it is read until the end), or empty.
    private static func procSelfIO() -> String {
        let fd = open("/proc/self/io", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
