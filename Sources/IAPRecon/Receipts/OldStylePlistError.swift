/// Why old-style plist text could not be parsed; `offset` is the byte where it went wrong.
struct OldStylePlistError: Error, Sendable, Hashable, CustomStringConvertible {
    var reason: String
    var offset: Int

    var description: String { "\(reason) at byte \(offset)" }
}
