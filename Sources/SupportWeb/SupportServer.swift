import Foundation
import Hummingbird
import IAPRecon
import Logging
import ServiceLifecycle

/// `iap-recon serve`: the support web view over a store opened read-only.
///
/// Routes: `GET /` the search form; `GET /lookup?user=U` (or `transaction=`,
/// `original_transaction=`, `order_id=`; `tz=` for the time zone of the timeline) the answer;
/// `GET /api/lookup?…` the JSON of `lookup --format json`; `GET|POST /login` when a token guards
/// the server. Each request opens the store anew, read-only, so a page shows the latest state a
/// nightly run has committed, and never waits for its lock.
public enum SupportServer {
    /// Builds the application (the routes, token check, request log and security headers).
    ///
    /// - Parameters:
    ///   - settings: Where to listen and what to guard with; call ``SupportServerSettings/validate()`` first.
    ///   - logger: Request logs (method, path, status, duration; never a header or the query).
    ///   - onListening: Called with the bound port once the server listens.
    public static func makeApplication(
        settings: SupportServerSettings, logger: Logger, onListening: (@Sendable (Int) -> Void)? = nil
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware())
        if let token = settings.token {
            router.add(middleware: TokenMiddleware(token: AccessToken(token)))
            SupportRoutes.addLogin(to: router, token: AccessToken(token))
        }
        SupportRoutes.add(to: router, settings: settings)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: "iap-recon"),
            onServerRunning: { channel in onListening?(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then finishes in-flight requests and stops.
    ///
    /// - Parameters:
    ///   - announce: Called once with the URL the server listens on.
    /// - Throws: ``ServeError`` for unsafe settings or a server that cannot start;
    ///   ``StoreError/noStore(path:)`` (and other ``StoreError``s) when the store cannot be read.
    public static func run(
        settings: SupportServerSettings, logger: Logger, announce: @escaping @Sendable (String) -> Void
    ) async throws {
        try settings.validate()
        _ = try settings.dependencies(logger: logger)
        let host = settings.host.contains(":") && !settings.host.hasPrefix("[") ? "[\(settings.host)]" : settings.host
        let app = makeApplication(settings: settings, logger: logger) { port in
            announce("http://\(host):\(port)/")
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            throw ServeError.startFailed(String(describing: error))
        }
    }
}

/// One log line per request: method, path, status and duration.
///
/// Never headers (the token travels in one), never the query or body (customer ids, the login form).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let method = request.method.rawValue
        let path = request.uri.path
        do {
            let response = try await next(request, context)
            log(context, method, path, Int(response.status.code), started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(context, method, path, Int(status), started)
            throw error
        }
    }

    private func log(
        _ context: Context, _ method: String, _ path: String, _ status: Int, _ started: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - started
        let millis = elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        context.logger.info(
            "request", metadata: ["method": "\(method)", "path": "\(path)", "status": "\(status)", "ms": "\(millis)"])
    }
}

/// Headers that keep the pages inert: no scripts, no framing, nothing loaded from elsewhere,
/// nothing cached.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// Lets a request through only with the token (Bearer) or the session cookie; everything else
/// gets the login form (pages) or 401 (the API).
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: AccessToken

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.path == "/login" { return try await next(request, context) }
        if let bearer = AccessToken.bearer(request.headers[.authorization]), token.matches(bearer) {
            return try await next(request, context)
        }
        if let cookie = request.cookies[AccessToken.cookieName], token.matchesSession(cookie.value) {
            return try await next(request, context)
        }
        if request.uri.path.hasPrefix("/api/") {
            var response = SupportRoutes.json(#"{"error":"unauthorized"}"# + "\n", status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        let next = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        return SupportRoutes.html(SupportPages.login(next: next, failed: false), status: .unauthorized)
    }
}
