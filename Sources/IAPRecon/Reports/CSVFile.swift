/// A CSV report written row by row (RFC 4180, CRLF, the cells of ``CSVTable``): a long table never sits in memory.
///
/// The file appears under its name only at ``commit()`` (``ReportFile/Output``).
public final class CSVFile {
    private let output: ReportFile.Output
    private var buffer: [UInt8] = []

    /// Bytes gathered before they are written.
    static let bufferSize = 1 << 20

    /// Starts the file at `path` with its header row.
    public init(path: String, header: [String]) throws(ReportError) {
        output = try ReportFile.Output(path: path)
        buffer.reserveCapacity(Self.bufferSize + 4096)
        CSVTable.append(header.map { CSVCell.text($0) }, to: &buffer)
    }

    /// Appends one row.
    public func append(_ row: [CSVCell]) throws(ReportError) {
        CSVTable.append(row, to: &buffer)
        if buffer.count >= Self.bufferSize {
            try output.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes what is left and puts the file in place.
    public func commit() throws(ReportError) {
        try output.write(buffer)
        buffer.removeAll()
        try output.commit()
    }
}
