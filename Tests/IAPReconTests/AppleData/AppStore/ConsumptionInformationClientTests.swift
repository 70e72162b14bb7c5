import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconModel

/// Send Consumption Information V2 through the App Store client (canned transport): the request Apple documents, and
/// its answers.
@Suite("Send Consumption Information V2 (canned transport)")
struct ConsumptionInformationClientTests {
    static let now = Date(timeIntervalSince1970: 1_795_176_000)
    static let body = Data(
        #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#.utf8)

    func client(_ transport: CannedTransport) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(
            key: AppStoreServerAPIClientTests.key(), endpoints: .loopback, transport: transport,
            retryPolicy: .testing(clock: RecordingClock(fixedNow: Self.now)), rateLimiter: .unlimited())
    }

    @Test func aPutWithTheBodyIsAcceptedWith202() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 202))])
        let result = try await client(transport).sendConsumptionInformation(
            transactionID: "2000000001", body: Self.body, environment: .production)
        #expect(result.value == true)
        let request = try #require(transport.requests.first)
        #expect(request.method == .put)
        #expect(
            request.url.absoluteString == "http://127.0.0.1:9/production/inApps/v2/transactions/consumption/2000000001")
        #expect(request.endpoint == .consumptionInformation)
        #expect(request.body == Self.body)
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("Authorization")?.hasPrefix("Bearer ") == true)
    }

    @Test func aServerErrorIsRetriedAndAnInvalidRequestIsAFailure() async throws {
        let retried = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 503)), .success(AppleHTTPResponse(status: 202)),
        ])
        let accepted = try await client(retried).sendConsumptionInformation(
            transactionID: "1", body: Self.body, environment: .sandbox)
        #expect(accepted.value == true)
        #expect(retried.requests.count == 2)
        #expect(retried.requests.first?.url.absoluteString.contains("/sandbox/") == true)
        let refused = CannedTransport(sequence: [
            .success(
                AppleHTTPResponse(status: 400, json: #"{"errorCode":4000023,"errorMessage":"Invalid request."}"#))
        ])
        let failure = try await client(refused).sendConsumptionInformation(
            transactionID: "1", body: Self.body, environment: .production)
        #expect(failure.failure?.httpStatus == 400)
        #expect(failure.failure?.apiError?.rawValue == 4_000_023)
        #expect(refused.requests.count == 1)
    }
}
