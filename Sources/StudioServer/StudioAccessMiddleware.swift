import Hummingbird
import HummingbirdWebSocket
import Studio

/// Applies ``StudioSecurity`` to every HTTP request before any route: a foreign Host → 421, no token
/// off loopback → 401; `?token=` is exchanged for the HttpOnly, SameSite=Strict cookie.
/// WebSocket upgrades are decided by the `/ws` route itself (Origin rules, 403).
struct StudioAccessMiddleware: RouterMiddleware {
    typealias Context = BasicWebSocketRequestContext
    let server: StudioServer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/ws" { return try await next(request, context) }
        let security = server.security
        let decision = security.decideRequest(
            host: request.head.authority, queryToken: request.uri.queryParameters["token"].map(String.init),
            cookie: request.headers[.cookie])
        switch decision {
        case .badHost: return Response(status: .misdirectedRequest)
        case .unauthorized, .forbidden:
            return Response(status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: .init(string: "401: open the URL with ?token=… that prospero studio printed\n")))
        case .allow: return try await next(request, context)
        case .allowSettingCookie:
            var response = try await next(request, context)
            // Over HTTPS the cookie is Secure: a browser never sends the token back over plain HTTP.
            if let cookie = security.setCookie { response.headers[.setCookie] = server.options.tls == nil ? cookie : cookie + "; Secure" }
            return response
        }
    }
}
