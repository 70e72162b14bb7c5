/// The `revenue_schedule.csv` a report wrote, as the store keeps it (`revenue_schedule_written`): where it is, the
/// as-of of its lines, its size and the CRC-32 of its bytes.
///
/// The next report patches that file only when it still is these bytes: a file that was edited, replaced, truncated
/// or removed since is written whole again.
public struct RevenueScheduleRecord: Sendable, Hashable {
    /// The path the file was written to (the report folder's, as given).
    public var path: String
    /// The instant its lines are as of.
    public var asOf: Int64
    /// Its size in bytes.
    public var bytes: Int64
    /// zlib's CRC-32 of all its bytes.
    public var crc32: UInt32

    public init(path: String, asOf: Int64, bytes: Int64, crc32: UInt32) {
        self.path = path
        self.asOf = asOf
        self.bytes = bytes
        self.crc32 = crc32
    }
}
