import AppleData
import Foundation
import ReconModel

/// A `receipt_checks` row (aliased `c`): what the offline decode concluded about a receipt.
package enum ReceiptChecksRow {
    package static let table = "receipt_checks"

    /// The `status` of a receipt that decoded; any other status is a ``ReceiptDecodingError/Kind``.
    package static let decodedStatus = "decoded"

    /// The columns, for a table aliased `c`, with `check_` names so they can sit beside a receipt's.
    package static let columns = """
        c.status AS check_status, c.reason AS check_reason, c.environment AS check_environment,
        c.receipt_type AS check_receipt_type, c.bundle_id AS check_bundle_id, c.app_version AS check_app_version,
        c.original_app_version AS check_original_app_version, c.creation_date AS check_creation_date,
        c.signature AS check_signature, c.signature_detail AS check_signature_detail
        """

    /// Whether the receipt was checked, and if so how: nil when it never was; else the decode
    /// failure, or nil failure for a receipt that decoded.
    ///
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a failure kind this program
    ///   does not know.
    package static func outcome(_ statement: any StoreStatement) throws(StoreError) -> Result<
        Void, ReceiptDecodingError
    >? {
        let row = SQLRow(statement, table: table)
        guard let status = row.optionalText("check_status") else { return nil }
        if status == decodedStatus { return .success(()) }
        let kind = try row.value("check_status", as: ReceiptDecodingError.Kind.self)
        return .failure(ReceiptDecodingError(kind, row.optionalText("check_reason") ?? ""))
    }

    /// What a decoded receipt said about itself (entries are read separately).
    ///
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a signature status this
    ///   program does not know.
    package static func decoded(_ statement: any StoreStatement, format: ReceiptFormat) throws(StoreError)
        -> ReceiptEvidence
    {
        let row = SQLRow(statement, table: table)
        return ReceiptEvidence(
            format: format, environment: row.environment("check_environment"),
            receiptType: row.optionalText("check_receipt_type"), bundleID: row.optionalText("check_bundle_id"),
            appVersion: row.optionalText("check_app_version"),
            originalAppVersion: row.optionalText("check_original_app_version"),
            creationDate: row.optionalInt64("check_creation_date"),
            signature: try row.value("check_signature", as: SignatureStatus.self),
            signatureDetail: row.optionalText("check_signature_detail"), entries: [])
    }

    /// The check as verification needs it; nil when the receipt was never checked.
    ///
    /// - Parameter transactionIDs: the column holding the space-separated ids decoded offline; none when the caller
    ///   reads them apart.
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a stored value this program
    ///   does not know.
    package static func check(_ statement: any StoreStatement, transactionIDs: String? = nil) throws(StoreError)
        -> ReceiptCheck?
    {
        guard let outcome = try outcome(statement) else { return nil }
        let row = SQLRow(statement, table: table)
        let failure: ReceiptDecodingError?
        switch outcome {
        case .success: failure = nil
        case .failure(let error): failure = error
        }
        return ReceiptCheck(
            failure: failure, environment: row.environment("check_environment"),
            bundleID: row.optionalText("check_bundle_id"),
            signature: try row.value("check_signature", as: SignatureStatus.self),
            transactionIDs: (transactionIDs.flatMap { row.optionalText($0) } ?? "").split(separator: " ")
                .map(String.init))
    }
}
