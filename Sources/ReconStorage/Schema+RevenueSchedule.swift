/// What the store keeps of the `revenue_schedule.csv` the latest report wrote, so the next report can patch that file
/// instead of writing every line again (CONTRACT §5 "Incremental reports").
extension Schema {
    /// `revenue_schedule_written`: where the file was written, the as-of its lines are at, and its size and CRC-32.
    ///
    /// Kept in the same transaction as the kept sales it was written from: the row describes the file of the report
    /// whose results are kept, or there is none.
    package static let revenueScheduleWritten = """
        CREATE TABLE revenue_schedule_written (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            path TEXT NOT NULL,
            as_of INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            crc32 INTEGER NOT NULL
        );
        """
}
