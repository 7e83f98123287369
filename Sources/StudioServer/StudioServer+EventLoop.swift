import NIOCore
import NIOPosix

extension StudioServer {
    /// NIO's shared event loops, the ones the server's connections run on (Hummingbird's default group), in a fixed
    /// order: a socket's home (``StudioFanOut/listenersHome``) is its loop's index here, and browser audio keeps a
    /// doorbell on each (``StudioBrowserDriver/handOn(from:)``), so that the render thread wakes the loop its
    /// listeners live on and that loop writes them in the same wake-up.
    public static let eventLoops: [any EventLoop] = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())

    /// The index of `loop` in ``eventLoops`` (nil: not one of them).
    static func home(of loop: any EventLoop) -> Int? {
        eventLoops.firstIndex { $0 === loop }
    }
}
