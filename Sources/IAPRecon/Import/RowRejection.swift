/// Why one input row was not accepted: a reason a person can act on.
struct RowRejection: Error, Sendable, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
