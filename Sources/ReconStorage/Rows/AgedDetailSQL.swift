import AppleData
import ReconModel

/// A finding's detail that states an age, worded again in SQL at another as-of: its words around the age as kept
/// (`aged_before`, `aged_since`, `aged_after`), the age worded as ``FindingText/duration(_:)`` words it (minutes below
/// two hours, hours below two days, then days, rounded down).
package enum AgedDetailSQL {
    /// The detail of the row whose columns start with `prefix` (`"f."`, or `""`) at the as-of `asOf` (an SQL
    /// expression): its `detail` as kept when it states no age.
    package static func detail(asOf: String, prefix: String = "") -> String {
        // Never below 0 (an as-of before the age began); written out, as SQLite's scalar `MAX` is not PostgreSQL's.
        let age = "(CASE WHEN (\(asOf)) > \(prefix)aged_since THEN (\(asOf)) - \(prefix)aged_since ELSE 0 END)"
        return """
            CASE WHEN \(prefix)aged_since IS NULL THEN \(prefix)detail ELSE \(prefix)aged_before || (CASE
                WHEN \(age) / 60000 < 120 THEN (\(age) / 60000) || ' min'
                WHEN \(age) / 3600000 < 48 THEN (\(age) / 3600000) || ' h'
                ELSE (\(age) / 86400000) || ' days' END) || \(prefix)aged_after END
            """
    }
}
