import ReconModel

/// An iOS 6 `SKPaymentTransaction.transactionReceipt`, decoded: the top-level facts and every
/// `purchase-info` key Apple documents.
///
/// The signature is kept but not checked offline; `verifyReceipt` confirms these receipts.
public struct LegacyTransactionReceipt: Sendable, Hashable {
    /// Top-level `environment`; absent means Production, as Apple treats it.
    public var environment: StoreEnvironment
    /// The raw top-level `environment`, nil when absent.
    public var rawEnvironment: String?
    /// The decoded top-level `signature` blob, nil when absent or not base64.
    public var signature: [UInt8]?
    /// Top-level `pod`.
    public var pod: String?
    /// Top-level `signing-status`.
    public var signingStatus: String?

    /// `transaction-id`.
    public var transactionID: String
    /// `original-transaction-id`.
    public var originalTransactionID: String?
    /// `product-id`.
    public var productID: String?
    /// `bid`: the app's bundle id.
    public var bundleID: String?
    /// `bvrs`: the app's bundle version.
    public var bundleVersion: String?
    /// `quantity`.
    public var quantity: Int?
    /// `purchase-date-ms` (or `purchase-date` in GMT), epoch ms.
    public var purchaseDate: Int64?
    /// `original-purchase-date-ms` (or `original-purchase-date`), epoch ms.
    public var originalPurchaseDate: Int64?
    /// `expires-date` (milliseconds in iOS 6 subscription receipts), epoch ms.
    public var expiresDate: Int64?
    /// `cancellation-date` (ms), when Apple refunded it.
    public var cancellationDate: Int64?
    /// `web-order-line-item-id`.
    public var webOrderLineItemID: String?
    /// `item-id`: the product's App Store item id.
    public var itemID: String?
    /// `app-item-id`: the app's App Store item id.
    public var appItemID: String?
    /// `version-external-identifier`.
    public var versionExternalIdentifier: String?
    /// `unique-identifier`: the device's identifier.
    public var uniqueIdentifier: String?
    /// `unique-vendor-identifier`.
    public var uniqueVendorIdentifier: String?
    /// Every `purchase-info` key with a string value, raw, including those above.
    public var purchaseInfo: [String: String]

    /// The receipt as evidence: one entry, signature not checked.
    public var evidence: ReceiptEvidence {
        let entry = EvidenceEntry(
            transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
            quantity: quantity, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate, cancellationDate: cancellationDate, webOrderLineItemID: webOrderLineItemID,
            environment: environment, bundleID: bundleID)
        return ReceiptEvidence(
            format: .transactionReceipt, environment: environment, bundleID: bundleID,
            creationDate: nil, signature: .notChecked,
            signatureDetail: "iOS 6 receipt signatures are not checked offline; verifyReceipt confirms them",
            entries: [entry])
    }
}

/// Decodes iOS 6 transaction receipts.
///
/// The receipt is base64 of old-style plist text whose `purchase-info` is base64 of another
/// plist. Pure and bounded: any input gives a value or an error, never a crash.
public struct LegacyReceiptDecoder: Sendable {
    /// The largest upload accepted (characters of base64).
    public static let maxInputLength = 1 << 20

    /// A decoder.
    public init() {}

    /// Decodes `data` (base64 as uploaded; line breaks and spaces are ignored; the plist text
    /// itself is also accepted) into evidence.
    public func decode(_ data: String) -> Result<ReceiptEvidence, ReceiptDecodingError> {
        decodeReceipt(data).map(\.evidence)
    }

    /// Decodes `data` into every field the receipt holds.
    public func decodeReceipt(_ data: String) -> Result<LegacyTransactionReceipt, ReceiptDecodingError> {
        do {
            return .success(try parse(data))
        } catch {
            return .failure(error)
        }
    }

    private func parse(_ data: String) throws(ReceiptDecodingError) -> LegacyTransactionReceipt {
        guard data.utf8.count <= Self.maxInputLength else {
            throw ReceiptDecodingError(.malformed, "transaction receipt longer than \(Self.maxInputLength) characters")
        }
        let outerBytes = try Self.plistBytes(data, what: "transaction receipt")
        let outer = try Self.dictionary(outerBytes, what: "transaction receipt")

        guard let purchaseInfoText = outer["purchase-info"]?.string else {
            throw ReceiptDecodingError(.malformed, "transaction receipt has no purchase-info string")
        }
        let innerBytes = try Self.plistBytes(purchaseInfoText, what: "purchase-info")
        let inner = try Self.dictionary(innerBytes, what: "purchase-info")
        var info: [String: String] = [:]
        for (key, value) in inner {
            if let text = value.string { info[key] = text }
        }
        guard let transactionID = info["transaction-id"], !transactionID.isEmpty else {
            throw ReceiptDecodingError(.malformed, "purchase-info has no transaction-id")
        }

        let rawEnvironment = outer["environment"]?.string
        var signature: [UInt8]?
        if let signatureText = outer["signature"]?.string {
            signature = ReceiptBase64.decode(signatureText, alphabet: .standard, allowWhitespace: true)
        } else if case .data(let bytes) = outer["signature"] {
            signature = bytes
        }
        return LegacyTransactionReceipt(
            environment: rawEnvironment.map(StoreEnvironment.init(raw:)) ?? .production,
            rawEnvironment: rawEnvironment,
            signature: signature,
            pod: outer["pod"]?.string,
            signingStatus: outer["signing-status"]?.string,
            transactionID: transactionID,
            originalTransactionID: info["original-transaction-id"],
            productID: info["product-id"],
            bundleID: info["bid"],
            bundleVersion: info["bvrs"],
            quantity: try Self.integer(info, "quantity").map { Int($0) },
            purchaseDate: try Self.date(info, msKey: "purchase-date-ms", textKey: "purchase-date"),
            originalPurchaseDate: try Self.date(
                info, msKey: "original-purchase-date-ms", textKey: "original-purchase-date"),
            expiresDate: try Self.date(info, msKey: "expires-date", textKey: "expires-date-formatted"),
            cancellationDate: try Self.date(info, msKey: "cancellation-date", textKey: nil),
            webOrderLineItemID: info["web-order-line-item-id"],
            itemID: info["item-id"],
            appItemID: info["app-item-id"],
            versionExternalIdentifier: info["version-external-identifier"],
            uniqueIdentifier: info["unique-identifier"],
            uniqueVendorIdentifier: info["unique-vendor-identifier"],
            purchaseInfo: info)
    }

    /// The plist text bytes of `text`: base64-decoded, or as is when it already is plist text.
    private static func plistBytes(_ text: String, what: String) throws(ReceiptDecodingError) -> [UInt8] {
        let trimmed = text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if trimmed.first == UInt8(ascii: "{") {
            return Array(trimmed)
        }
        guard let bytes = ReceiptBase64.decode(text, alphabet: .standard, allowWhitespace: true), !bytes.isEmpty else {
            throw ReceiptDecodingError(.malformed, "\(what) is not base64")
        }
        return bytes
    }

    private static func dictionary(_ bytes: [UInt8], what: String) throws(ReceiptDecodingError) -> [String:
        OldStylePlist]
    {
        let value: OldStylePlist
        do {
            value = try OldStylePlistParser().parse(bytes)
        } catch {
            throw ReceiptDecodingError(.malformed, "\(what) is not an old-style plist (\(error))")
        }
        guard let dictionary = value.dictionary else {
            throw ReceiptDecodingError(.malformed, "\(what) is not a dictionary")
        }
        return dictionary
    }

    private static func integer(_ info: [String: String], _ key: String) throws(ReceiptDecodingError) -> Int64? {
        guard let text = info[key] else { return nil }
        let trimmed = text.trimmingASCIISpaces()
        if trimmed.isEmpty { return nil }
        guard let value = Int64(trimmed) else {
            throw ReceiptDecodingError(.malformed, "purchase-info \(key) is not an integer")
        }
        return value
    }

    private static func date(
        _ info: [String: String], msKey: String, textKey: String?
    ) throws(ReceiptDecodingError) -> Int64? {
        if let millis = try integer(info, msKey) { return millis }
        guard let textKey, let text = info[textKey] else { return nil }
        guard let millis = ReceiptDates.legacyGMTMillis(text) else {
            throw ReceiptDecodingError(.malformed, "purchase-info \(textKey) is not a GMT date")
        }
        return millis
    }
}
