import ReconFindings
import ReconModel
import ReconStorage

/// A CSV report written row by row (RFC 4180, CRLF, the cells of ``CSVTable``): a long table never sits in memory.
///
/// The file appears under its name only at ``commit()`` (``AtomicFile``).
public final class CSVFile {
    private let output: AtomicFile
    private var buffer: [UInt8] = []

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
        do {
            try output.write(buffer)
        } catch {
            throw ReportError(error)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
