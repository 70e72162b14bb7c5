import Foundation

/// Parses durations like `250ms`, `90s`, `30m`, `1h`, `2d`, `1h30m` (or plain seconds).
public enum DurationText {
    /// The shortest text of whole hours, seconds or milliseconds that reads back as `millis` (`24h`, `60s`, `500ms`).
    public static func text(_ millis: Int64) -> String {
        if millis > 0, millis % 86_400_000 == 0, millis / 86_400_000 > 1 { return "\(millis / 86_400_000)d" }
        if millis > 0, millis % 3_600_000 == 0 { return "\(millis / 3_600_000)h" }
        if millis % 1000 == 0 { return "\(millis / 1000)s" }
        return "\(millis)ms"
    }

    /// Milliseconds, or nil when the text is not a duration.
    public static func millis(_ text: String) -> Int64? {
        var trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasSuffix("ms"), let ms = Int64(trimmed.dropLast(2)), ms >= 0 { return ms }
        if trimmed.hasSuffix("ms") { trimmed = "" }
        if let seconds = Int64(trimmed), seconds >= 0 { return seconds * 1000 }
        var total: Int64 = 0
        var number = ""
        for ch in trimmed {
            if ch.isNumber {
                number.append(ch)
                continue
            }
            guard let value = Int64(number) else { return nil }
            let unit: Int64
            switch ch {
            case "s": unit = 1000
            case "m": unit = 60_000
            case "h": unit = 3_600_000
            case "d": unit = 86_400_000
            default: return nil
            }
            total += value * unit
            number = ""
        }
        return number.isEmpty ? total : nil
    }
}
