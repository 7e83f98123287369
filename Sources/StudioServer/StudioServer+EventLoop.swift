import NIOCore
import NIOPosix

extension StudioServer {
    /// Puts NIO's shared event loops, the ones the server runs on, at one, and returns that loop. A studio's handful
    /// of sockets need no more, and on the one loop browser audio's hand-over (``StudioBrowserDriver/handOn(from:)``)
    /// and every listening socket's write share one wake-up per group of blocks (with two loops, half the pages
    /// would land on the other one and cost a wake-up more). `prospero studio` calls it first thing: NIO takes the
    /// count only before its loops start, and only once per process.
    public static func singleEventLoop() -> any EventLoop {
        NIOSingletons.groupLoopCountSuggestion = 1
        return MultiThreadedEventLoopGroup.singleton.next()
    }
}
