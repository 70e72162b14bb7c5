import Foundation
import ReconModel

extension AppStoreServerAPIClient {
    /// Send Consumption Information V2 (`PUT /inApps/v2/transactions/consumption/{transactionId}`).
    ///
    /// The answer to a `CONSUMPTION_REQUEST`, `body` the JSON `ConsumptionRequest` as sent. Apple answers
    /// `202 Accepted`.
    ///
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information (V1, `PUT
    /// /inApps/v1/transactions/consumption/{transactionId}`, is deprecated since December 2025).
    ///
    /// - Parameters:
    ///   - transactionID: The transaction the request is about.
    ///   - body: The JSON body.
    ///   - environment: The environment the request came from (no fallback: Apple asked there).
    /// - Returns: success (`true`) on 202; a failure with Apple's status and error; unreachable after the retry budget.
    public func sendConsumptionInformation(transactionID: String, body: Data, environment: StoreEnvironment) async
        -> ServerAPIResult<Bool>
    {
        let path = "/inApps/v2/transactions/consumption/" + Self.escapePath(transactionID)
        // An app of several bundle ids: the next app's token when Apple does not know the transaction for this one.
        let (call, attempts) = await acrossApps(
            { signer in
                await perform(
                    .consumptionInformation, environment: environment, path: path, query: [], method: .put,
                    body: body, signer: signer
                ) { _ in true }
            }, notFound: { Self.isNotFound($0.0) })
        return call.result(environment: environment, attempts: attempts) { $0 }
    }
}
