import ReconModel

/// Why old-style plist text could not be parsed; `offset` is the byte where it went wrong.
package struct OldStylePlistError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String
    package var offset: Int

    package var description: String { "\(reason) at byte \(offset)" }
}
