import Foundation
import Hummingbird
import IAPRecon

/// Send Consumption Information V2 (`PUT /inApps/v2/transactions/consumption/{transactionId}`), as Apple answers it:
/// `202 Accepted` with no body for a transaction it knows in that environment and a body that states
/// `customerConsented` true, `deliveryStatus` and `sampleContentProvided`; `400` for a body that does not
/// (Apple's `InvalidRequestError`), `404` for a transaction it does not know.
///
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information
enum SimulatedConsumptionInformation {
    static let invalid = SimulatorReply.apiError(400, code: 4_000_000, message: "Invalid request.")

    /// Apple's answer to one body about `id`.
    static func answer(store: SimulatorStore, environment: StoreEnvironment, id: String, body: Data, bundleID: String?)
        -> SimulatorReply
    {
        guard let transaction = store.transactions[id], transaction.storeEnvironment == environment,
            store.belongs(transaction, to: bundleID)
        else { return SimulatedServerAPI.notFound }
        guard let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            json["customerConsented"] as? Bool == true, json["deliveryStatus"] is String,
            json["sampleContentProvided"] is Bool
        else { return invalid }
        return SimulatorReply(status: 202, body: Data())
    }
}

extension AppStoreSimulator {
    /// Adds the routes of subscriptions and refund requests: Get All Subscription Statuses and Send Consumption
    /// Information.
    static func addSubscriptionRoutes(to router: Router<SimulatorContext>, state: SimulatorState) {
        addSubscriptionStatusRoute(to: router, state: state)
        addConsumptionRoute(to: router, state: state)
    }

    /// Adds `PUT /:environment/inApps/v2/transactions/consumption/:id` (``SimulatedConsumptionInformation``); every
    /// body received is kept in the request log (``SimulatorRequestLog/consumptionBodies``).
    static func addConsumptionRoute(to router: Router<SimulatorContext>, state: SimulatorState) {
        router.put("/:environment/inApps/v2/transactions/consumption/:id") { request, context -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 16)
            let body = Data(buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? [])
            let id = context.parameters.get("id") ?? ""
            return serverAPI(request, context, state) { environment, _, bundleID in
                let reply = SimulatedConsumptionInformation.answer(
                    store: state.store, environment: environment, id: id, body: body, bundleID: bundleID)
                state.log.noteConsumption(
                    transactionID: id, environment: environment, body: String(decoding: body, as: UTF8.self),
                    status: reply.status)
                return reply
            }
        }
    }
}

extension SimulatorRequestLog {
    /// One Send Consumption Information body received.
    public struct ConsumptionBody: Sendable, Hashable {
        public var transactionID: String
        public var environment: StoreEnvironment
        /// The JSON body as sent.
        public var body: String
        /// What the simulator answered.
        public var status: Int
    }
}
