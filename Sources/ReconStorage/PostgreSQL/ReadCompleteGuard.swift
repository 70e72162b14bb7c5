import AppleData
import NIOCore
import ReconModel

/// Passes the client library a "read complete" only after a read it asked for.
///
/// When the server closes the connection, SwiftNIO drains the socket without waiting for a
/// `read()`: the last bytes arrive as reads the PostgreSQL client did not ask for, followed by a
/// `channelReadComplete`. The client library accepts such rows, but its row stream stops the whole
/// process on that extra `channelReadComplete` (a precondition failure in postgres-nio 1.33.2's
/// `RowStreamStateMachine`, the bug async-http-client fixed in its own state machine): a server
/// stopped mid-import then ended the job with signal 4 instead of the one-line error and exit 1.
///
/// This handler sits just below the client library (above TLS when there is TLS) and holds back a
/// `channelReadComplete` that follows no `read()`. Nothing is lost: the rows it closes stay in the
/// client's buffer and are handed over with the next read's, or the connection's end fails the query.
package final class ReadCompleteGuard: ChannelDuplexHandler {
    package typealias InboundIn = NIOAny
    package typealias OutboundIn = NIOAny

    /// Whether a `read()` went down since the last `channelReadComplete` went up.
    ///
    /// The connection is set up before this handler is added, so a read may already be on its way.
    private var readRequested = true
    /// How many `channelReadComplete`s were held back.
    package private(set) var heldBack = 0

    package func read(context: ChannelHandlerContext) {
        readRequested = true
        context.read()
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        guard readRequested else {
            heldBack += 1
            return
        }
        readRequested = false
        context.fireChannelReadComplete()
    }
}

@available(*, unavailable)
extension ReadCompleteGuard: Sendable {}
