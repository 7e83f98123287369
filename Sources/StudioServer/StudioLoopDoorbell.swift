import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// A doorbell the browser audio's render thread rings for an event loop that writes the listening sockets (one per
/// loop: the render thread rings the one its listeners live on): one byte into a pipe whose read end that loop
/// watches, so the loop wakes once per group of blocks and hands them on itself (``StudioBrowserDriver/handOn()``),
/// with no sender thread woken in between. ``ring()`` is one non-blocking
/// `write` (no allocation, no lock); rings that arrive before the loop reads coalesce into one hand-over.
final class StudioLoopDoorbell: @unchecked Sendable {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The pipe's write end (the render thread's side).
    let writeEnd: CInt
    private let channel: any Channel

    /// Registers the pipe on `loop`; `rung` runs there once per batch of rings.
    init(loop: any EventLoop, rung: @escaping @Sendable () -> Void) throws {
        var ends: [CInt] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Unavailable(description: "pipe: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }  // not inherited by the camera bridge
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)  // a full pipe refuses, never blocks
        do {
            channel = try NIOPipeBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Reader(rung: rung)) }
                }
                .takingOwnershipOfDescriptor(input: ends[0])
                .wait()
        } catch {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            throw error
        }
        writeEnd = ends[1]
    }

    /// Render thread: wakes the loop (a full pipe means it has not read yet: it will, and hand everything on).
    @inline(__always)
    static func ring(_ writeEnd: CInt) {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Unregisters the pipe and closes both ends (after the render thread ended).
    func close() {
        channel.close(promise: nil)
        Glibc.close(writeEnd)
    }

    /// The loop's side: the bytes say only "rung"; once per read burst, `rung`.
    private final class Reader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let rung: @Sendable () -> Void

        init(rung: @escaping @Sendable () -> Void) { self.rung = rung }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

        func channelReadComplete(context: ChannelHandlerContext) { rung() }
    }
}
