import NIOCore
import NIOPosix

extension StudioServer {
    /// One of NIO's shared event loops, the ones the server runs on: where browser audio's hand-over runs
    /// (``StudioBrowserDriver/handOn(from:)``). A listening socket on this loop is written in the same wake-up;
    /// one on the other loop costs that loop's wake-up too. (One loop for everything would save it, but on a busy
    /// machine `StudioLoadTests`' 20 clients then lost blocks in 3 runs of 4, against 1 of 3 with NIO's two.)
    public static func sharedEventLoop() -> any EventLoop {
        MultiThreadedEventLoopGroup.singleton.next()
    }
}
