import Foundation
import Hummingbird
import IAPRecon
import Logging

/// The routes of the support web view.
enum SupportRoutes {
    static func add(to router: Router<BasicRequestContext>, settings: SupportServerSettings) {
        router.get("/") { request, _ -> Response in
            html(SupportPages.search(SearchQuery(query: request.uri.query)))
        }
        router.get("/lookup") { request, context -> Response in
            let query = SearchQuery(query: request.uri.query)
            let zone = query.timeZone
            switch query.subject {
            case .none:
                return html(SupportPages.search(query))
            case .failure(let message):
                return html(SupportPages.failure(query, message: message, timeZone: zone), status: .badRequest)
            case .some(let subject):
                do {
                    let answer = try await settings.withDependencies(logger: context.logger) {
                        try await $0.answer(subject)
                    }
                    return html(SupportPages.lookup(answer.report, query: query, timeZone: zone))
                } catch {
                    let (status, message) = describe(error)
                    return html(SupportPages.failure(query, message: message, timeZone: zone), status: status)
                }
            }
        }
        router.get("/api/lookup") { request, context -> Response in
            switch SearchQuery(query: request.uri.query).subject {
            case .none:
                return errorJSON(
                    "give one of user, transaction, original_transaction, order_id, app_transaction", .badRequest)
            case .failure(let message):
                return errorJSON(message, .badRequest)
            case .some(let subject):
                do {
                    let answer = try await settings.withDependencies(logger: context.logger) {
                        try await $0.answer(subject)
                    }
                    return json(answer.json())
                } catch {
                    let (status, message) = describe(error)
                    return errorJSON(message, status)
                }
            }
        }
    }

    /// `GET /login` shows the form; `POST /login` checks the token and sets the session cookie
    /// (HttpOnly, SameSite=Strict) before going back to the page asked for.
    static func addLogin(to router: Router<BasicRequestContext>, token: AccessToken) {
        router.get("/login") { request, _ -> Response in
            html(SupportPages.login(next: safeNext(request.uri.queryParameters.get("next")), failed: false))
        }
        router.post("/login") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 16 * 1024)
            let body = String(buffer: buffer)
            let form = (try? URLEncodedFormDecoder().decode(LoginForm.self, from: body)) ?? LoginForm()
            let next = safeNext(form.next)
            guard let candidate = form.token, token.matches(candidate) else {
                // A pause per failed attempt slows guessing; the comparison itself is constant-time.
                try? await Task.sleep(for: .milliseconds(300))
                return html(SupportPages.login(next: next, failed: true), status: .unauthorized)
            }
            var response = Response(status: .seeOther, headers: [.location: next])
            response.setCookie(
                Cookie(
                    name: AccessToken.cookieName, value: token.sessionValue, path: "/", httpOnly: true,
                    sameSite: .strict))
            return response
        }
    }

    struct LoginForm: Decodable {
        var token: String?
        var next: String?
    }

    /// A local path to go back to after login; anything else (another host, `//x`) becomes `/`.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.hasPrefix("/\\"),
            !next.contains(where: { $0.isNewline || $0 == "\r" })
        else { return "/" }
        return next
    }

    /// The status and one-line message for a lookup that could not be answered.
    static func describe(_ error: any Error) -> (HTTPResponse.Status, String) {
        switch error {
        case let error as ConfigError: return (.badRequest, error.errorDescription ?? "\(error)")
        case let error as StoreError: return (.serviceUnavailable, error.errorDescription ?? "\(error)")
        case let error as LocalizedError: return (.internalServerError, error.errorDescription ?? "\(error)")
        default: return (.internalServerError, "the lookup failed: \(error)")
        }
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func errorJSON(_ message: String, _ status: HTTPResponse.Status) -> Response {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: ["error": message], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return json(String(decoding: data, as: UTF8.self) + "\n", status: status)
    }
}

/// The search fields of a request: one subject, and the viewer's time zone.
struct SearchQuery: Sendable {
    var user = ""
    var transaction = ""
    var originalTransaction = ""
    /// An Apple `appTransactionId` (CONTRACT §7).
    var appTransaction = ""
    var orderID = ""
    var timeZoneName = "UTC"

    /// What the query asks about.
    enum Subject {
        case none
        case some(LookupSubject)
        case failure(String)
    }

    /// Reads the raw query string as a browser's form sends it (`+` for a space, then
    /// percent-encoding); the first value of a repeated name wins.
    init(query: String?) {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0])
            if values[name] == nil { values[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        func value(_ name: String) -> String {
            (values[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        user = value("user")
        transaction = value("transaction")
        originalTransaction = value("original_transaction")
        appTransaction = value("app_transaction")
        orderID = value("order_id")
        let zone = value("tz")
        if !zone.isEmpty { timeZoneName = zone }
    }

    var subject: Subject {
        let given = [user, transaction, originalTransaction, orderID, appTransaction].filter { !$0.isEmpty }
        if given.isEmpty { return .none }
        if given.count > 1 {
            return .failure("give exactly one of user, transaction, original transaction, order id, app transaction")
        }
        if !appTransaction.isEmpty { return .some(.appTransaction(appTransaction)) }
        if !user.isEmpty { return .some(.user(user)) }
        if !transaction.isEmpty { return .some(.transaction(transaction)) }
        if !originalTransaction.isEmpty { return .some(.originalTransaction(originalTransaction)) }
        return .some(.order(orderID, transactionIDs: []))
    }

    /// The viewer's time zone; UTC when the name is not an IANA zone.
    var timeZone: TimeZone { TimeZone(identifier: timeZoneName) ?? TimeZone(identifier: "UTC") ?? .current }

    var isKnownTimeZone: Bool { TimeZone(identifier: timeZoneName) != nil }
}
