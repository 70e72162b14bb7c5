import CZlib
import ReconFindings
import ReconModel
import ReconStorage

/// A CSV report written row by row (RFC 4180, CRLF, the cells of ``CSVTable``): a long table never sits in memory.
///
/// The file appears under its name only at ``commit()`` (``AtomicFile``). Its size and zlib's CRC-32 of its bytes are
/// counted as they are written (``bytesWritten``, ``crc32``): what the store keeps of `revenue_schedule.csv`.
public final class CSVFile {
    private let output: AtomicFile
    private var buffer: [UInt8] = []
    /// The bytes written so far (all of them, once committed).
    package private(set) var bytesWritten: Int64 = 0
    /// zlib's CRC-32 of the bytes written so far.
    package private(set) var crc32: UInt32 = 0

    /// Bytes gathered before they are written.
    package static let bufferSize = 1 << 20

    /// Starts the file at `path` with its header row.
    public init(path: String, header: [String]) throws(ReportError) {
        do {
            output = try AtomicFile(path: path)
        } catch {
            throw ReportError(error)
        }
        buffer.reserveCapacity(Self.bufferSize + 4096)
        CSVTable.append(header.map { CSVCell.text($0) }, to: &buffer)
    }

    /// Appends one row.
    public func append(_ row: [CSVCell]) throws(ReportError) {
        CSVTable.append(row, to: &buffer)
        if buffer.count >= Self.bufferSize {
            try flush()
        }
    }

    /// Appends one row that `encode` writes into the buffer itself, CRLF included (``RevenueScheduleLine``): the
    /// bytes ``append(_:)`` would write for its cells.
    func append(encoding encode: (inout [UInt8]) -> Void) throws(ReportError) {
        encode(&buffer)
        if buffer.count >= Self.bufferSize {
            try flush()
        }
    }

    /// Appends bytes that are already whole rows of this file, CRLF included (the lines of an earlier
    /// `revenue_schedule.csv` that read the same).
    func append(raw bytes: UnsafeRawBufferPointer) throws(ReportError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize {
            try flush()
        }
    }

    /// Writes what is left and puts the file in place.
    public func commit() throws(ReportError) {
        try flush()
        buffer.removeAll()
        do {
            try output.commit()
        } catch {
            throw ReportError(error)
        }
    }

    /// Writes the gathered bytes.
    private func flush() throws(ReportError) {
        crc32 = Self.updatedCRC32(crc32, buffer)
        bytesWritten += Int64(buffer.count)
        do {
            try output.write(buffer)
        } catch {
            throw ReportError(error)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// zlib's CRC-32 of `crc`'s bytes followed by `bytes`.
    static func updatedCRC32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        let crc = crc32_z(UInt(crc), base.assumingMemoryBound(to: UInt8.self), bytes.count)
        return UInt32(truncatingIfNeeded: crc)
    }

    static func updatedCRC32(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { updatedCRC32(crc, $0) }
    }
}
