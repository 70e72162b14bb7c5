import Foundation
import IAPRecon
import Synchronization

/// One request the simulator received.
public struct SimulatorRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query string, if any.
    public var query: String?
    /// The fault applied, if any (latency included).
    public var fault: String?
    /// The HTTP status answered; nil for a reset or hang.
    public var status: Int?
    /// When it arrived.
    public var receivedAt: Date
}

/// Every request the simulator received, for tests asserting attempt counts.
public final class SimulatorRequestLog: Sendable {
    private let entries = Mutex<[SimulatorRequest]>([])
    private let receipts = Mutex<[VerifyReceiptRequest]>([])
    private let consumption = Mutex<[ConsumptionBody]>([])

    func noteConsumption(transactionID: String, environment: StoreEnvironment, body: String, status: Int) {
        consumption.withLock {
            $0.append(
                ConsumptionBody(transactionID: transactionID, environment: environment, body: body, status: status))
        }
    }

    /// Every Send Consumption Information body received, in arrival order.
    public var consumptionBodies: [ConsumptionBody] { consumption.withLock { $0 } }

    /// One `verifyReceipt` request: which receipt (SHA-256 of its `receipt-data`, hex), where, when.
    public struct VerifyReceiptRequest: Sendable, Hashable {
        public var receiptSHA256: String
        public var environment: StoreEnvironment
        public var receivedAt: Date
    }

    func noteReceipt(_ sha256: String, environment: StoreEnvironment) {
        receipts.withLock {
            $0.append(VerifyReceiptRequest(receiptSHA256: sha256, environment: environment, receivedAt: Date()))
        }
    }

    /// Every `verifyReceipt` request by receipt, in arrival order (to count how often one
    /// receipt was asked).
    public var verifyReceiptRequests: [VerifyReceiptRequest] { receipts.withLock { $0 } }

    init() {}

    func append(_ request: SimulatorRequest) -> Int {
        entries.withLock {
            $0.append(request)
            return $0.count - 1
        }
    }

    func complete(_ index: Int, status: Int?, fault: String?) {
        entries.withLock { all in
            guard all.indices.contains(index) else { return }
            all[index].status = status
            if let fault { all[index].fault = fault }
        }
    }

    /// Every request so far, in arrival order.
    public var requests: [SimulatorRequest] { entries.withLock { $0 } }

    /// Requests to exactly `path`.
    public func count(path: String) -> Int {
        entries.withLock { $0.filter { $0.path == path }.count }
    }

    /// Requests whose path starts with `prefix`.
    public func count(prefix: String) -> Int {
        entries.withLock { $0.filter { $0.path.hasPrefix(prefix) }.count }
    }

    /// Request count per path.
    public var countsByPath: [String: Int] {
        entries.withLock { all in all.reduce(into: [:]) { $0[$1.path, default: 0] += 1 } }
    }

    /// Every request received so far.
    public var total: Int { entries.withLock { $0.count } }

    /// Forgets every request.
    public func reset() {
        entries.withLock { $0.removeAll() }
    }
}
