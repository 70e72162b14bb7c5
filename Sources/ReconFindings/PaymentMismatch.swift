import AppleData
import ReconModel
import ReconStorage

/// `PAYMENT_MISMATCH`: for one fiscal month and region currency, Apple's payment summary and the
/// Financial Reports in the store disagree: the summary's `Earned` is not the sum of the reports'
/// `Extended Partner Share`, or a region is paid with no report in the store, or a report's region is
/// missing from the summary.
///
/// The amount is `Earned` minus the reports' sum, in the region currency. Its identity is the fiscal
/// month and currency (``MonthCloseKey/subject``).
public struct PaymentMismatch: Sendable {
    public let code = FindingCode.paymentMismatch

    /// The detector.
    public init() {}

    /// One fiscal month and currency: what the payment summary says was earned and what the reports add up to.
    public struct Check: Sendable, Hashable {
        public var month: FiscalMonth
        public var currency: String
        /// The payment summary's regions of this currency; nil when the summary has none.
        public var payment: MonthClosePayment?
        /// The reports' `Extended Partner Share`; nil when no report covers the month in this currency.
        public var reported: Int64?
        /// The identity: the fiscal month and currency.
        public var subject: String
    }

    /// Reports the check when the two disagree.
    public func inspect(_ check: Check, into findings: inout FindingCollector) {
        let earned = check.payment?.earned ?? 0
        let reported = check.reported ?? 0
        guard check.payment == nil || check.reported == nil || earned != reported else { return }
        let (difference, overflow) = earned.subtractingReportingOverflow(reported)
        findings.report(
            Finding(
                code: code, transactionID: "", userIDs: [], environment: .production,
                amount: overflow ? nil : Money(milliunits: difference, currency: check.currency),
                detail: Finding.Message.paymentMismatch(check).text, subject: check.subject))
    }
}

fileprivate extension Finding.Message {
    static func paymentMismatch(_ check: PaymentMismatch.Check) -> Self {
        func money(_ milli: Int64) -> String { Money(milliunits: milli, currency: check.currency).text }
        let month = "fiscal \(check.month.text)"
        switch (check.payment, check.reported) {
        case (let payment?, nil):
            return Self(
                "Apple's payment summary for \(month) pays \(payment.regions.joined(separator: ", ")) "
                    + "(earned \(money(payment.earned))), but no Financial Report in the store covers \(check.currency) "
                    + "for that month")
        case (nil, let reported?):
            return Self(
                "The Financial Reports for \(month) earned \(money(reported)) in \(check.currency), but Apple's payment "
                    + "summary for that month has no \(check.currency) region")
        case (let payment?, let reported?):
            return Self(
                "Apple's payment summary for \(month) says \(payment.regions.joined(separator: ", ")) earned "
                    + "\(money(payment.earned)); the Financial Reports in the store add up to \(money(reported))")
        case (nil, nil):
            return Self("Nothing for \(month) in \(check.currency)")
        }
    }
}
