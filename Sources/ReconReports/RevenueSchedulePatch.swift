import ReconFindings
import ReconModel
import ReconStorage

/// `revenue_schedule.csv` patched from the last report's: the lines that cannot have changed are copied as bytes, the
/// others written again from the store, merged in transaction id order. The bytes are those of a whole write.
extension CSVReports {
    /// A written schedule: its size and CRC-32 (what the store keeps of it), and how many of its lines were copied from
    /// the last report's file and written from the store, and how many of that file's were not copied (written again,
    /// or a sale no longer counted).
    package struct RevenueScheduleWritten: Sendable, Hashable {
        package var bytes: Int64
        package var crc32: UInt32
        package var copied = 0
        package var rendered = 0
        package var dropped = 0
    }

    /// Writes the schedule at `report`'s as-of to `path` from `previous` and `changes`.
    ///
    /// `previous` is the file the kept results' report wrote; `changes` gives, in transaction id order, every sale
    /// whose line can differ from `previous`'s: each transaction judged again with its sale now (nil: no longer
    /// counted), and the kept sales in flight at `previous.asOf` or purchased since. Every other line of `previous` is
    /// copied.
    ///
    /// - Throws: ``UntrustedSchedule`` when `previous` is not the file the store recorded (its size or CRC-32 differ,
    ///   it is missing, or it is not as this program writes it); the file at `path` is then untouched.
    static func patchRevenueSchedule(
        _ report: DeferredRevenueReport, to path: String, previous: RevenueScheduleRecord,
        changes: (_ each: (String, RecognitionSale?) throws -> Void) throws -> Void
    ) throws -> RevenueScheduleWritten {
        let old = try PreviousRevenueSchedule(path: previous.path, bytes: previous.bytes)
        let file = try CSVFile(path: path, header: revenueScheduleHeader)
        var header: [UInt8] = []
        CSVTable.append(revenueScheduleHeader.map { CSVCell.text($0) }, to: &header)
        guard try old.next(), header.withUnsafeBytes({ $0.elementsEqual(old.line) }) else {
            throw UntrustedSchedule(reason: "the last report's schedule does not start with its header")
        }
        var written = RevenueScheduleWritten(bytes: 0, crc32: 0)
        var previousID: [UInt8] = []
        var more = false
        /// Moves to the old file's next line, checking its order.
        func advance() throws {
            more = try old.next()
            if more { try old.checkOrder(after: &previousID) }
        }
        try advance()
        /// Copies the old line and moves to the next.
        func copy() throws {
            try file.append(raw: old.line)
            written.copied += 1
            try advance()
        }
        let asOf = report.asOf
        var line = RevenueScheduleLine()
        var lastChange: [UInt8] = []
        try changes { id, sale in
            var id = id
            try id.withUTF8 { bytes in
                let id = UnsafeRawBufferPointer(bytes)
                // The store's order is the file's: each id after the one before, byte by byte.
                guard lastChange.withUnsafeBytes({ PreviousRevenueSchedule.compare(id, $0) > 0 }) else {
                    throw UntrustedSchedule(reason: "the store does not give the sales in transaction id order")
                }
                lastChange = Array(id)
                while more, old.compareID(with: id) < 0 { try copy() }
                if more, old.compareID(with: id) == 0 {
                    written.dropped += 1
                    try advance()
                }
            }
            // A sale purchased at or after the as-of is not in this report.
            guard let sale, sale.start < asOf else { return }
            let totals = RecognitionSchedule.totals(sale, by: asOf)
            try file.append { line.append(sale, totals: totals, to: &$0) }
            written.rendered += 1
        }
        while more { try copy() }
        guard old.bytesRead == previous.bytes, old.crc32 == previous.crc32 else {
            throw UntrustedSchedule(reason: "the last report's \(previous.path) changed since it was written")
        }
        try file.commit()
        written.bytes = file.bytesWritten
        written.crc32 = file.crc32
        return written
    }
}
