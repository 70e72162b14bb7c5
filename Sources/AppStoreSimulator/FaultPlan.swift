import Foundation
import IAPRecon
import Synchronization

/// Something the simulator does instead of (or before) answering normally.
public enum Fault: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Wait this long, then answer normally (combines with one other fault).
    case latency(milliseconds: Int)
    /// `verifyReceipt` answers HTTP 200 with this status (21005, 21100–21199...) and, when
    /// given, `is-retryable`.
    case verifyReceiptStatus(Int, isRetryable: Bool?)
    /// Answer this HTTP status; with an `errorCode`, a Server API error body.
    case httpStatus(Int, errorCode: Int64?)
    /// HTTP 429 (Server API body 4290000) with an optional `Retry-After`.
    case tooManyRequests(retryAfter: RetryAfterHint?)
    /// HTTP 200 with a body that is not JSON.
    case malformedJSON
    /// Close the connection without answering (TCP reset).
    case connectionReset
    /// Never answer: hold the request until the client gives up (or the simulator stops).
    case hang
    /// HTTP 200 whose `Content-Length` is longer than the body sent: half the body, then the
    /// connection closes.
    case truncatedBody
    /// HTTP 200 with a chunked body: the first chunk, then the connection closes mid-body.
    case closedMidBody

    /// Whether the fault replaces the normal answer (everything but latency).
    public var isTerminal: Bool {
        if case .latency = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .latency(let ms): return "latency \(ms) ms"
        case .verifyReceiptStatus(let status, let retryable):
            return "status \(status)" + (retryable.map { " is-retryable \($0)" } ?? "")
        case .httpStatus(let status, let code): return "HTTP \(status)" + (code.map { " error \($0)" } ?? "")
        case .tooManyRequests(let hint): return "HTTP 429" + (hint.map { " Retry-After \($0)" } ?? "")
        case .malformedJSON: return "malformed JSON"
        case .connectionReset: return "connection reset"
        case .hang: return "hang"
        case .truncatedBody: return "truncated body"
        case .closedMidBody: return "closed mid-body"
        }
    }
}

/// How a 429 fault writes `Retry-After`.
public enum RetryAfterHint: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A UNIX time in milliseconds this far in the future (Apple's documented form).
    case unixMilliseconds(delayMilliseconds: Int64)
    /// Delta seconds (the HTTP standard form).
    case seconds(Int)
    /// An HTTP-date this many seconds in the future.
    case httpDate(delaySeconds: Int)

    public var description: String {
        switch self {
        case .unixMilliseconds(let delay): return "now+\(delay) ms (UNIX ms)"
        case .seconds(let seconds): return "\(seconds) s"
        case .httpDate(let seconds): return "HTTP-date now+\(seconds) s"
        }
    }

    /// The header value at `now`.
    func headerValue(now: Date) -> String {
        switch self {
        case .unixMilliseconds(let delay):
            return String(Int64((now.timeIntervalSince1970 * 1000).rounded()) + delay)
        case .seconds(let seconds):
            return String(seconds)
        case .httpDate(let seconds):
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: now.addingTimeInterval(TimeInterval(seconds)))
        }
    }
}

/// When a fault applies: to which paths, and to which of their requests.
public struct FaultRule: Codable, Sendable, Hashable {
    /// A request path or path prefix (`/production/verifyReceipt`, `/sandbox`,
    /// `/production/inApps/v2/history`); nil for every path.
    public var path: String?
    /// The fault.
    public var fault: Fault
    /// Apply to the first N requests matching ``path`` only.
    public var firstRequests: Int?
    /// Apply with this probability (0...1), drawn from a generator seeded with ``seed``.
    public var probability: Double?
    /// Seed for ``probability``.
    public var seed: UInt64?
    /// Let the first N requests matching ``path`` through; the rule applies from the next one on.
    public var skipFirst: Int?

    /// Creates a rule; with neither `firstRequests` nor `probability` it applies to every request.
    public init(
        path: String? = nil, fault: Fault, firstRequests: Int? = nil, probability: Double? = nil, seed: UInt64? = nil,
        skipFirst: Int? = nil
    ) {
        self.path = path
        self.fault = fault
        self.firstRequests = firstRequests
        self.probability = probability
        self.seed = seed
        self.skipFirst = skipFirst
    }

    /// The fault on the first `count` requests to `path`.
    public static func first(_ count: Int, at path: String? = nil, _ fault: Fault) -> FaultRule {
        FaultRule(path: path, fault: fault, firstRequests: count)
    }

    /// The fault on every request to `path`.
    public static func always(at path: String? = nil, _ fault: Fault) -> FaultRule {
        FaultRule(path: path, fault: fault)
    }

    /// The fault on a seeded random share of the requests to `path`.
    public static func random(_ probability: Double, seed: UInt64, at path: String? = nil, _ fault: Fault) -> FaultRule
    {
        FaultRule(path: path, fault: fault, probability: probability, seed: seed)
    }

    /// Whether the rule covers `requestPath`.
    func matches(_ requestPath: String) -> Bool {
        guard let path, !path.isEmpty else { return true }
        if requestPath == path { return true }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return requestPath.hasPrefix(prefix)
    }
}

/// The fault knobs of one simulator run: rules checked in order for every request.
///
/// Latency rules add up; the first terminal fault that applies replaces the answer.
public struct FaultPlan: Codable, Sendable, Hashable {
    /// The rules, in order.
    public var rules: [FaultRule]

    /// Creates a plan.
    public init(_ rules: [FaultRule] = []) { self.rules = rules }

    /// No faults.
    public static let none = FaultPlan()
}

/// What the injector decided for one request.
struct FaultDecision: Sendable {
    var latencyMilliseconds: Int = 0
    var terminal: Fault?
}

/// Applies a ``FaultPlan``, counting matching requests per rule and drawing seeded randomness.
final class FaultInjector: Sendable {
    private struct RuleState {
        var rule: FaultRule
        var matched = 0
        var random: SplitMix64
    }

    private let state: Mutex<[RuleState]>

    init(_ plan: FaultPlan) {
        state = Mutex(Self.states(plan))
    }

    /// Replaces the plan; counters restart.
    func replace(_ plan: FaultPlan) {
        state.withLock { $0 = Self.states(plan) }
    }

    func decide(path: String) -> FaultDecision {
        state.withLock { rules in
            var decision = FaultDecision()
            for index in rules.indices where rules[index].rule.matches(path) {
                rules[index].matched += 1
                let rule = rules[index].rule
                let applies: Bool
                if let skip = rule.skipFirst, rules[index].matched <= skip {
                    applies = false
                } else if let first = rule.firstRequests {
                    applies = rules[index].matched <= first
                } else if let probability = rule.probability {
                    applies = rules[index].random.nextUnit() < probability
                } else {
                    applies = true
                }
                guard applies else { continue }
                if case .latency(let ms) = rule.fault {
                    decision.latencyMilliseconds += max(0, ms)
                } else if decision.terminal == nil {
                    decision.terminal = rule.fault
                }
            }
            return decision
        }
    }

    private static func states(_ plan: FaultPlan) -> [RuleState] {
        plan.rules.map { RuleState(rule: $0, random: SplitMix64(seed: $0.seed ?? 0x5EED)) }
    }
}
