import Foundation
import Logging
import ReconModel

/// Sends single requests for the clients: rate limit, concurrency slot, timeout, and a log line
/// that names the endpoint and outcome but never a header value or a body.
package struct AppleRequestExecutor: Sendable {
    package let transport: any HTTPTransport
    package let rateLimiter: RateLimiter
    package let gate: ConcurrencyGate
    package let timeout: Duration
    package let logger: Logger

    /// One HTTP exchange; transport failures come back as values.
    package func send(_ request: AppleHTTPRequest, attempt: Int) async -> Result<AppleHTTPResponse, TransportError> {
        do {
            try await rateLimiter.acquire(request.endpoint)
        } catch {
            return .failure(.connectionFailed("cancelled while rate limited"))
        }
        let result: Result<AppleHTTPResponse, TransportError> = await gate.withSlot {
            do {
                return .success(try await transport.send(request, timeout: timeout))
            } catch let error as TransportError {
                return .failure(error)
            } catch {
                return .failure(AsyncHTTPTransport.classify(error, limit: 0))
            }
        }
        switch result {
        case .success(let response):
            logger.debug(
                "Apple answered",
                metadata: [
                    "endpoint": "\(request.endpoint)", "environment": "\(request.environment)",
                    "attempt": "\(attempt)", "http_status": "\(response.status)",
                ])
        case .failure(let error):
            logger.debug(
                "Apple request failed",
                metadata: [
                    "endpoint": "\(request.endpoint)", "environment": "\(request.environment)",
                    "attempt": "\(attempt)", "error": "\(error)",
                ])
        }
        return result
    }

    /// The retry step for an HTTP answer that is transient by status (429, 5xx); nil otherwise.
    package static func transientHTTPStep<Value>(
        _ response: AppleHTTPResponse, now: Date
    ) -> RetryStep<Value>? {
        guard response.status == 429 || (500...599).contains(response.status) else { return nil }
        let retryAfter = response.header("retry-after").flatMap { RetryAfter.delay(from: $0, now: now) }
        return .retry(reason: "HTTP \(response.status)", retryAfter: retryAfter)
    }
}
