import Foundation
import ReconModel

/// The Apple endpoint a request is for: the key for rate limits, logs and request logs.
public enum AppleEndpointKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `POST /verifyReceipt` (legacy receipt validation).
    case verifyReceipt
    /// `GET /inApps/v1/transactions/{transactionId}` (Get Transaction Info).
    case transactionInfo
    /// `GET /inApps/v2/history/{transactionId}` (Get Transaction History).
    case transactionHistory
    /// `GET /inApps/v1/lookup/{orderId}` (Look Up Order ID).
    case orderLookup
    /// `GET /inApps/v2/refund/lookup/{transactionId}` (Get Refund History).
    case refundHistory
    /// `POST /inApps/v1/notifications/history` (Get Notification History).
    case notificationHistory
    /// `GET /inApps/v1/subscriptions/{transactionId}` (Get All Subscription Statuses).
    case subscriptionStatuses
    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` (Send Consumption Information V2).
    case consumptionInformation

    public var description: String { rawValue }
}

/// One HTTP request to Apple, as a client builds it and an ``HTTPTransport`` sends it.
///
/// Its `description` names the method, URL and endpoint only: never the headers (they carry the
/// bearer token) nor the body (it carries receipt data and the shared secret).
public struct AppleHTTPRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The HTTP methods Apple's endpoints use.
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
    }

    /// The HTTP method.
    public var method: Method
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields; names are lower-case.
    public var headers: [String: String]
    /// The body, for `POST`.
    public var body: Data?
    /// Which endpoint this is (rate limits, logs).
    public var endpoint: AppleEndpointKind
    /// The environment whose host the URL points at.
    public var environment: StoreEnvironment

    /// Creates a request; header names are lower-cased.
    public init(
        method: Method, url: URL, headers: [String: String] = [:], body: Data? = nil,
        endpoint: AppleEndpointKind, environment: StoreEnvironment
    ) {
        self.method = method
        self.url = url
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
        self.endpoint = endpoint
        self.environment = environment
    }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var description: String {
        "\(method.rawValue) \(url.absoluteString) (\(endpoint), \(environment), \(body?.count ?? 0)-byte body)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["method": method, "url": url, "endpoint": endpoint, "environment": environment])
    }
}

/// An HTTP answer from Apple (or from whatever answered at the configured URL).
public struct AppleHTTPResponse: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: Int
    /// Header fields; names are lower-case, repeated fields joined with `", "`.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// Convenience for canned answers: a JSON body given as text.
    public init(status: Int, json: String, headers: [String: String] = [:]) {
        var all = headers
        all["content-type"] = "application/json"
        self.init(status: status, headers: all, body: Data(json.utf8))
    }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    public var description: String { "HTTP \(status) (\(body.count)-byte body)" }
}

/// The one seam between the Apple clients and the network.
///
/// The production implementation is ``AsyncHTTPTransport``; unit tests substitute a transport that
/// records each request and returns canned responses.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns Apple's HTTP answer, whatever its status.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: The most the whole exchange may take.
    /// - Returns: The HTTP response, including 4xx and 5xx answers.
    /// - Throws: ``TransportError`` when there is no HTTP answer (timeout, reset, refused).
    func send(_ request: AppleHTTPRequest, timeout: Duration) async throws -> AppleHTTPResponse
}
