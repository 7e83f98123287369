import Hummingbird
import HummingbirdWebSocket
import Studio

/// Applies ``StudioAccess`` to every page and resource before any route: a foreign Host → 421, no token
/// off loopback → 401, token guessing → 429; `?token=` is exchanged for the HttpOnly, SameSite=Strict
/// cookie. WebSocket upgrades never reach the router undecided: ``StudioUpgradeGate`` decides them.
struct StudioAccessMiddleware: RouterMiddleware {
    typealias Context = StudioRequestContext
    let access: StudioAccess
    let setCookie: @Sendable () -> String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/ws" { return try await next(request, context) }
        let decision = access.decide(
            .page, host: request.head.authority, origin: nil, target: request.head.path ?? "/",
            cookie: request.headers[.cookie], address: context.remoteAddress.flatMap(StudioAddressBlock.init))
        switch decision {
        case .badHost: return Response(status: .misdirectedRequest)
        case .tooManyGuesses: return Response(status: .tooManyRequests, headers: [.retryAfter: "60"])
        case .unauthorized, .forbidden:
            return Response(status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: .init(string: "401: open the URL with ?token=… that prospero studio printed\n")))
        case .allow: return try await next(request, context)
        case .allowSettingCookie:
            var response = try await next(request, context)
            if let cookie = setCookie() { response.headers[.setCookie] = cookie }
            return response
        }
    }
}
