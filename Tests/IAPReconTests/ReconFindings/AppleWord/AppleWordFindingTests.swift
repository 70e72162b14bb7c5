import Foundation
import Testing

@testable import ReconFindings
@testable import ReconModel

/// `CONSUMPTION_UNANSWERED`, `EXTERNAL_PURCHASE_UNREPORTED` and `CONSENT_RESCINDED` (CONTRACT §4, §7), one case table
/// each, near misses included.
@Suite struct AppleWordFindingTests {
    static let hour: Int64 = 3_600_000

    static func request(
        _ id: String, askedAgo: Int64, consented: ConsumptionRequestLine.Consented = .yes, answered: Bool = false,
        outcome: String? = nil, inFlight: Bool = false
    ) -> ConsumptionRequestLine {
        let asked = Fx.asOf - askedAgo
        return ConsumptionRequestLine(
            notificationUUID: "uuid-\(id)", transactionID: id, originalTransactionID: id, userIDs: ["u-\(id)"],
            productID: "coins", environment: .production, reason: "UNINTENDED_PURCHASE", requestedAt: asked,
            consented: consented, deliveryStatus: "DELIVERED", consumptionPercentage: nil,
            sampleContentProvided: false, refundPreference: nil, answeredAt: answered ? asked + hour : nil,
            answerInFlight: inFlight, outcome: outcome, amount: Fx.usd(990))
    }

    static func notice(
        _ type: String, subtype: String? = nil, uuid: String, environment: StoreEnvironment = .production,
        token: String? = nil, app: String? = nil
    ) -> AppleNotice {
        AppleNotice(
            uuid: uuid, type: type, subtype: subtype, signedDate: Fx.asOf - hour, environment: environment,
            transactionID: nil, originalTransactionID: nil, productID: nil, externalPurchaseID: token,
            appTransactionID: app, consumptionRequestReason: nil)
    }

    static let consumptionUnanswered: [DetectorCase] = [
        DetectorCase(
            name: "open before the deadline, and one past it",
            apple: .init(requests: [request("t1", askedAgo: 2 * hour), request("t2", askedAgo: 13 * hour)]),
            expected: [
                ExpectedFinding(.consumptionUnanswered, "t1", users: ["u-t1"], amount: Fx.usd(990)),
                ExpectedFinding(.consumptionUnanswered, "t2", users: ["u-t2"], amount: Fx.usd(990)),
            ]),
        DetectorCase(
            name: "no consents in the store: open, and said so",
            apple: .init(requests: [request("t3", askedAgo: hour, consented: .unknown)]),
            expected: [ExpectedFinding(.consumptionUnanswered, "t3", users: ["u-t3"], amount: Fx.usd(990))]),
        DetectorCase(
            name: "near miss: answered, decided, in flight, or without consent",
            apple: .init(requests: [
                request("t4", askedAgo: 2 * hour, answered: true),
                request("t5", askedAgo: 2 * hour, outcome: "REFUND"),
                request("t6", askedAgo: 2 * hour, outcome: "REFUND_DECLINED"),
                request("t7", askedAgo: 2 * hour, inFlight: true),
                request("t8", askedAgo: 2 * hour, consented: .no),
            ]),
            expected: []),
    ]

    static let externalPurchaseUnreported: [DetectorCase] = [
        DetectorCase(
            name: "an unreported Production token, and a Sandbox one",
            apple: .init(notices: [
                notice("EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED", uuid: "n1", token: "tok-1"),
                notice(
                    "EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED", uuid: "n2", environment: .sandbox,
                    token: "SANDBOX_tok-2"),
            ]),
            expected: [
                ExpectedFinding(.externalPurchaseUnreported, "tok-1", users: [], amount: nil),
                ExpectedFinding(.externalPurchaseUnreported, "SANDBOX_tok-2", users: [], amount: nil),
            ]),
        DetectorCase(
            name: "near miss: a token of another subtype, and another type",
            apple: .init(notices: [
                notice("EXTERNAL_PURCHASE_TOKEN", subtype: "CREATED", uuid: "n3", token: "tok-3"),
                notice("SOMETHING_NEW", uuid: "n4"),
            ]),
            expected: []),
    ]

    static let consentRescinded: [DetectorCase] = [
        DetectorCase(
            name: "rescinded for an Apple Account two app accounts share",
            apple: .init(
                notices: [notice("RESCIND_CONSENT", uuid: "n5", app: "app-1")], users: ["app-1": ["u1", "u2"]]),
            expected: [ExpectedFinding(.consentRescinded, "", users: ["u1", "u2"], amount: nil)]),
        DetectorCase(
            name: "near miss: another notification about the same app transaction",
            apple: .init(notices: [notice("TEST", uuid: "n6", app: "app-1")], users: ["app-1": ["u1"]]),
            expected: []),
    ]

    @Test(arguments: consumptionUnanswered + externalPurchaseUnreported + consentRescinded)
    func detects(_ testCase: DetectorCase) {
        testCase.check()
    }

    @Test func aSandboxTokenIsLowAndAProductionOneCritical() {
        let found = Self.externalPurchaseUnreported[0].run()
        #expect(found.first { $0.transactionID == "tok-1" }?.severity == .critical)
        #expect(found.first { $0.transactionID == "SANDBOX_tok-2" }?.severity == .low)
    }

    @Test func theDetailSaysWhetherTheDeadlinePassed() {
        let found = Self.consumptionUnanswered[0].run()
        #expect(found.first { $0.transactionID == "t1" }?.detail.contains("run answer-consumption before then") == true)
        #expect(found.first { $0.transactionID == "t2" }?.detail.contains("has passed") == true)
    }

    @Test func theV2BodyHasSortedKeysAndOnlyWhatIsSet() {
        var line = Self.request("t9", askedAgo: Self.hour)
        #expect(line.body == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#)
        line.deliveryStatus = "UNDELIVERED_OTHER"
        line.refundPreference = "GRANT_FULL"
        line.sampleContentProvided = true
        #expect(
            line.body
                == #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","refundPreference":"GRANT_FULL","#
                + #""sampleContentProvided":true}"#)
        #expect(line.isToSend(at: Fx.asOf))
        #expect(!line.isToSend(at: line.deadline))
    }
}
