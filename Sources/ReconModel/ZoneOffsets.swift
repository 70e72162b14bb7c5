import Foundation

/// A time zone's offsets from UTC from 1970 to 2100, as a sorted table of the instants they change, made once per
/// zone: the calendar month of every counted sale's months (revenue recognition, CONTRACT §5.1) and the end of every
/// catalog period asked Foundation's `TimeZone` before, which costs far more than a search of a few hundred instants.
///
/// The table is what `TimeZone` says: its offset at the window's first second, then at each of its transitions
/// (`nextDaylightSavingTimeTransition(after:)`, which ICU answers with every change of offset, not only daylight
/// saving). Outside the window, or for a zone whose table does not agree with `TimeZone` on either side of a
/// transition, the answers are nil and callers ask `TimeZone` as before.
public final class ZoneOffsets: Sendable {
    public let timeZone: TimeZone
    /// The seconds (since 1970) at which each offset starts; the first is the window's start.
    private let starts: [Int64]
    /// The offset from UTC, in seconds, from each start to the next.
    private let offsets: [Int64]
    /// The window's end (exclusive), in seconds since 1970.
    private let windowEnd: Int64

    /// 1970-01-01T00:00:00Z.
    static let windowStart: Int64 = 0
    /// 2100-01-01T00:00:00Z.
    static let defaultWindowEnd: Int64 = 4_102_444_800

    /// The table of `zone`, made on first use and kept for the process.
    public static func of(_ zone: TimeZone) -> ZoneOffsets {
        lock.lock()
        defer { lock.unlock() }
        if let known = tables[zone.identifier] { return known }
        let table = ZoneOffsets(zone)
        tables[zone.identifier] = table
        return table
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var tables: [String: ZoneOffsets] = [:]

    /// Reads the table of `zone` from `TimeZone`, between 1970 and `windowEnd`.
    init(_ zone: TimeZone, windowEnd: Int64 = ZoneOffsets.defaultWindowEnd) {
        timeZone = zone
        func offset(_ second: Int64) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second))))
        }
        var starts = [Self.windowStart]
        var offsets = [offset(Self.windowStart)]
        var agrees = true
        var after = Date(timeIntervalSince1970: TimeInterval(Self.windowStart))
        var asked = 0
        while asked < 100_000, let next = zone.nextDaylightSavingTimeTransition(after: after) {
            asked += 1
            // Asked again past an answer that is not after the question (never seen: the answer is exclusive).
            guard next > after else {
                after = after.addingTimeInterval(1)
                continue
            }
            // The first whole second at or after the transition: seconds are what `Timestamp` asks about.
            let second = Int64(next.timeIntervalSince1970.rounded(.up))
            guard second < windowEnd else { break }
            let new = offset(second)
            // Each side of the change must be what the table says, or the table is not used at all.
            if offset(second - 1) != offsets[offsets.count - 1] { agrees = false }
            if second > starts[starts.count - 1] && new != offsets[offsets.count - 1] {
                starts.append(second)
                offsets.append(new)
            }
            after = next
        }
        // The last offset must hold to the window's end.
        if asked >= 100_000 || offset(windowEnd - 1) != offsets[offsets.count - 1] { agrees = false }
        self.starts = agrees ? starts : []
        self.offsets = agrees ? offsets : []
        self.windowEnd = agrees ? windowEnd : Self.windowStart
    }

    /// The zone's offset from UTC at `second` (since 1970), as `TimeZone.secondsFromGMT(for:)` gives it; nil outside
    /// the window.
    public func secondsFromGMT(atSecond second: Int64) -> Int64? {
        guard let index = index(of: second) else { return nil }
        return offsets[index]
    }

    /// The offset at `second` when it holds for `margin` seconds on either side (no change of offset closer, all in
    /// the window); nil otherwise.
    public func steadyOffset(around second: Int64, margin: Int64) -> Int64? {
        guard let index = index(of: second), starts[index] <= second - margin, second + margin < windowEnd else {
            return nil
        }
        if index + 1 < starts.count && starts[index + 1] <= second + margin { return nil }
        return offsets[index]
    }

    /// ``Timestamp/dayAndSecond(_:in:)`` in the zone, from the table (from `TimeZone` outside the window).
    public func dayAndSecond(_ millis: Int64) -> (day: Int, second: Int) {
        let utc = Timestamp.floorDiv(millis, 1000)
        guard let offset = secondsFromGMT(atSecond: utc) else { return Timestamp.dayAndSecond(millis, in: timeZone) }
        let seconds = utc + offset
        let day = Timestamp.floorDiv(seconds, 86_400)
        return (Int(day), Int(seconds - day * 86_400))
    }

    /// The index of the offset in force at `second`: the last start at or before it.
    private func index(of second: Int64) -> Int? {
        guard !starts.isEmpty, second >= starts[0], second < windowEnd else { return nil }
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= second { low = middle } else { high = middle }
        }
        return low
    }
}
