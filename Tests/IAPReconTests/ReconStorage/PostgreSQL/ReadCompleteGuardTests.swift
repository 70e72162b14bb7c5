import NIOCore
import NIOEmbedded
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The "read complete" a server's close brings without a read: held back, everything else passed.
@Suite struct ReadCompleteGuardTests {
    /// Counts what reaches the handler above the guard (where the PostgreSQL client sits).
    final class Above: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var reads: [String] = []
        var readCompletes = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            reads.append(String(buffer: unwrapInboundIn(data)))
        }

        func channelReadComplete(context: ChannelHandlerContext) { readCompletes += 1 }
    }

    let channel = EmbeddedChannel()
    let guardHandler = ReadCompleteGuard()
    let above = Above()

    init() throws {
        try channel.pipeline.syncOperations.addHandlers([guardHandler, above])
    }

    /// Bytes from the socket, without the "read complete" that ends them.
    func receive(_ text: String) {
        channel.pipeline.fireChannelRead(NIOAny(ByteBuffer(string: text)))
    }

    /// A read asked for, then answered: its rows and its "read complete" go up, as always.
    @Test func aRequestedReadPassesWhole() {
        channel.pipeline.fireChannelReadComplete()  // the read on its way when the guard was added
        channel.pipeline.read()
        receive("rows 1")
        channel.pipeline.fireChannelReadComplete()
        channel.pipeline.read()
        receive("rows 2")
        channel.pipeline.fireChannelReadComplete()
        #expect(above.reads == ["rows 1", "rows 2"])
        #expect(above.readCompletes == 3)
        #expect(guardHandler.heldBack == 0)
    }

    /// What SwiftNIO drains from a socket the server closed comes with no read asked for: its rows
    /// go up (the client keeps them), its "read complete" does not (the client would stop the process).
    @Test func aDrainAfterTheServerClosedKeepsItsRowsButNotItsReadComplete() {
        channel.pipeline.read()
        receive("rows 1")
        channel.pipeline.fireChannelReadComplete()
        receive("last rows")
        channel.pipeline.fireChannelReadComplete()
        #expect(above.reads == ["rows 1", "last rows"])
        #expect(above.readCompletes == 1)
        #expect(guardHandler.heldBack == 1)
        // The next read asked for brings its "read complete" again.
        channel.pipeline.read()
        channel.pipeline.fireChannelReadComplete()
        #expect(above.readCompletes == 2)
    }
}
