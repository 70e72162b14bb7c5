import Foundation
import IAPRecon
import Synchronization

/// A clock whose sleeps return at once and are recorded: the program's manual clock.
typealias RecordingClock = ManualClock

extension ManualClock {
    /// - Parameter fixedNow: where the clock starts (default: the real time now).
    convenience init(fixedNow: Date? = nil) {
        self.init(fixedNow ?? Date())
    }
}

/// A transport that records every request and answers from a script.
final class CannedTransport: HTTPTransport {
    typealias Responder = @Sendable (AppleHTTPRequest, Int) -> Result<AppleHTTPResponse, TransportError>

    private let log = Mutex<[AppleHTTPRequest]>([])
    private let responder: Responder

    /// - Parameter responder: gets each request and its 0-based index.
    init(_ responder: @escaping Responder) {
        self.responder = responder
    }

    /// Answers the scripted responses in order, repeating the last one.
    convenience init(sequence: [Result<AppleHTTPResponse, TransportError>]) {
        self.init { _, index in
            sequence.isEmpty ? .failure(.connectionRefused) : sequence[min(index, sequence.count - 1)]
        }
    }

    func send(_ request: AppleHTTPRequest, timeout: Duration) async throws -> AppleHTTPResponse {
        let index = log.withLock {
            $0.append(request)
            return $0.count - 1
        }
        switch responder(request, index) {
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }

    var requests: [AppleHTTPRequest] { log.withLock { $0 } }
}

/// Apple's sample JSON from the App Store Server Library, copied into `Fixtures/AppStoreAPI`.
enum AppStoreFixtures {
    static func text(_ name: String) throws -> String {
        guard
            let url = Bundle.module.url(
                forResource: name, withExtension: "json", subdirectory: "Fixtures/AppStoreAPI"),
            let data = FileManager.default.contents(atPath: url.path),
            let text = String(data: data, encoding: .utf8)
        else { throw FixtureMissing(name: name) }
        return text
    }

    struct FixtureMissing: Error {
        var name: String
    }
}

/// Policies that never really wait.
extension RetryPolicy {
    static func testing(maxAttempts: Int = 4, clock: RecordingClock = RecordingClock()) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: maxAttempts, budget: .seconds(600), baseDelay: .milliseconds(100), maxDelay: .seconds(1),
            jitter: 0.5, random: { 0.5 }, clock: clock)
    }
}

/// Test endpoints on loopback (never Apple).
extension AppStoreEndpoints {
    static let loopback = AppStoreEndpoints(
        verifyReceiptProduction: URL(string: "http://127.0.0.1:9/production/verifyReceipt")
            ?? URL(fileURLWithPath: "/"),
        verifyReceiptSandbox: URL(string: "http://127.0.0.1:9/sandbox/verifyReceipt") ?? URL(fileURLWithPath: "/"),
        serverAPIProduction: URL(string: "http://127.0.0.1:9/production") ?? URL(fileURLWithPath: "/"),
        serverAPISandbox: URL(string: "http://127.0.0.1:9/sandbox") ?? URL(fileURLWithPath: "/"),
        requestTimeout: .milliseconds(200),
        concurrency: 4)
}

/// Decodes one base64url JWT segment as a JSON object.
func decodeJWTSegment(_ segment: Substring) -> [String: Any]? {
    var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    guard let data = Data(base64Encoded: base64) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}
