import AppleData
import ReconModel
import ReconStorage

/// Why one input row was not accepted: a reason a person can act on.
package struct RowRejection: Error, Sendable, Equatable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}
