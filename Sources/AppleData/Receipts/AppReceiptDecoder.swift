import Foundation
import ReconModel
import SwiftASN1
import X509

/// A PKCS#7 app receipt's payload, decoded: the receipt fields and every in-app purchase.
///
/// Field numbers are Apple's receipt attribute types. See
/// https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html
public struct AppReceipt: Sendable, Hashable {
    /// Type 0, raw: `Production`, `ProductionSandbox`, `Xcode`, `ProductionVPP`, ...
    public var receiptType: String?
    /// Type 2: the app's bundle id.
    public var bundleID: String?
    /// Type 3: the app version the receipt was made for.
    public var appVersion: String?
    /// Type 19: the app version originally bought.
    public var originalAppVersion: String?
    /// Type 12: when the receipt was made, epoch ms.
    public var creationDate: Int64?
    /// Type 21: when a volume-purchase receipt expires, epoch ms.
    public var expirationDate: Int64?
    /// Type 17: the in-app purchases, in receipt order.
    public var inAppPurchases: [AppReceiptInAppPurchase]

    /// A receipt with the given fields.
    public init(
        receiptType: String? = nil, bundleID: String? = nil, appVersion: String? = nil,
        originalAppVersion: String? = nil, creationDate: Int64? = nil, expirationDate: Int64? = nil,
        inAppPurchases: [AppReceiptInAppPurchase] = []
    ) {
        self.receiptType = receiptType
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.originalAppVersion = originalAppVersion
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        self.inAppPurchases = inAppPurchases
    }

    /// Every in-app purchase as evidence, speaking as of the receipt's creation date, with the plans the customer
    /// upgraded marked (``EvidenceEntry/markingUpgrades(_:)``: field 1712 is also an upgrade's date).
    public var evidenceEntries: [EvidenceEntry] {
        EvidenceEntry.markingUpgrades(
            inAppPurchases.map {
                var entry = $0.evidenceEntry
                entry.receiptCreationDate = creationDate
                return entry
            })
    }

    /// The environment the receipt type states: `Production`(`VPP`) → Production,
    /// `ProductionSandbox`/`ProductionVPPSandbox` → Sandbox, `Xcode` → Xcode; nil when absent.
    public var environment: StoreEnvironment? {
        guard let receiptType else { return nil }
        switch receiptType {
        case "Production", "ProductionVPP": return .production
        case "ProductionSandbox", "ProductionVPPSandbox": return .sandbox
        case "Xcode": return .xcode
        default: return StoreEnvironment(raw: receiptType)
        }
    }
}

/// One in-app purchase entry (receipt attribute type 17).
public struct AppReceiptInAppPurchase: Sendable, Hashable {
    /// Type 1701.
    public var quantity: Int?
    /// Type 1702.
    public var productID: String?
    /// Type 1703.
    public var transactionID: String
    /// Type 1705.
    public var originalTransactionID: String?
    /// Type 1704, epoch ms.
    public var purchaseDate: Int64?
    /// Type 1706, epoch ms.
    public var originalPurchaseDate: Int64?
    /// Type 1708, epoch ms: when an auto-renewable subscription expires.
    public var expiresDate: Int64?
    /// Type 1712, epoch ms: when Apple customer support cancelled it, or, for a subscription plan that was
    /// upgraded, the time of the upgrade (see ``EvidenceEntry/markingUpgrades(_:)``).
    public var cancellationDate: Int64?
    /// Type 1711.
    public var webOrderLineItemID: String?
    /// Type 1713: in a free trial.
    public var isTrialPeriod: Bool?
    /// Type 1719: in an introductory offer.
    public var isInIntroOfferPeriod: Bool?
    /// Type 1721.
    public var promotionalOfferID: String?

    /// An entry with the given fields.
    public init(
        quantity: Int? = nil, productID: String? = nil, transactionID: String, originalTransactionID: String? = nil,
        purchaseDate: Int64? = nil, originalPurchaseDate: Int64? = nil, expiresDate: Int64? = nil,
        cancellationDate: Int64? = nil, webOrderLineItemID: String? = nil, isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil, promotionalOfferID: String? = nil
    ) {
        self.quantity = quantity
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.webOrderLineItemID = webOrderLineItemID
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferID = promotionalOfferID
    }

    /// The entry as evidence (environment and bundle are the receipt's, not the entry's).
    public var evidenceEntry: EvidenceEntry {
        EvidenceEntry(
            transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
            quantity: quantity, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate, cancellationDate: cancellationDate, webOrderLineItemID: webOrderLineItemID,
            isTrialPeriod: isTrialPeriod, isInIntroOfferPeriod: isInIntroOfferPeriod)
    }
}

/// Decodes base64 PKCS#7 app receipts (DER or BER, with the indefinite lengths Xcode writes) and
/// checks their CMS signature against the trusted roots.
///
/// Pure and bounded: any input gives a value or an error, never a crash. The signature check
/// validates the chain at the receipt's creation date, with Apple's marker extensions on the
/// intermediate and the leaf; an Xcode (StoreKit testing) receipt is signed by a local
/// certificate and so comes out ``SignatureStatus/untrusted``.
public struct AppReceiptDecoder: Sendable {
    /// The largest upload accepted (characters of base64).
    public static let maxInputLength = 8 << 20
    /// The most in-app entries accepted in one receipt.
    public static let maxInAppPurchases = 200_000

    /// Roots the CMS signer must chain to.
    public let trust: TrustStore
    /// Whether to check the CMS signature at all (false: ``SignatureStatus/notChecked``).
    public let checksSignature: Bool
    /// "Now", for receipts without a creation date.
    package let clock: any ReconClock

    /// A decoder.
    ///
    /// - Parameters:
    ///   - trust: roots for the signature check (``TrustStore/apple`` by default: Apple Root CA).
    ///   - checksSignature: check the CMS signature (default true).
    ///   - clock: gives the time to validate at when the receipt has no creation date.
    public init(
        trust: TrustStore = .apple, checksSignature: Bool = true,
        clock: any ReconClock = SystemClock()
    ) {
        self.trust = trust
        self.checksSignature = checksSignature
        self.clock = clock
    }

    /// Decodes `data` and checks its signature.
    ///
    /// - Parameter data: the base64 receipt as uploaded (line breaks and spaces are ignored).
    /// - Returns: the evidence, whose ``ReceiptEvidence/signature`` says whether the receipt is
    ///   authentic; or a `.malformed` error when the bytes are not an app receipt.
    public func decode(_ data: String) async -> Result<ReceiptEvidence, ReceiptDecodingError> {
        let bytes: [UInt8]
        let receipt: AppReceipt
        do {
            bytes = try Self.decodeBase64(data)
            receipt = try Self.parse(bytes)
        } catch {
            return .failure(error)
        }
        var signature = SignatureStatus.notChecked
        var detail: String? = "signature check disabled"
        if checksSignature {
            (signature, detail) = await checkSignature(bytes, at: receipt.creationDate)
        }
        return .success(
            ReceiptEvidence(
                format: .appReceipt, environment: receipt.environment, receiptType: receipt.receiptType,
                bundleID: receipt.bundleID, appVersion: receipt.appVersion,
                originalAppVersion: receipt.originalAppVersion, creationDate: receipt.creationDate,
                signature: signature, signatureDetail: detail,
                entries: receipt.evidenceEntries))
    }

    /// Decodes `data` without checking the signature.
    public func decodeReceipt(_ data: String) -> Result<AppReceipt, ReceiptDecodingError> {
        do {
            return .success(try Self.parse(try Self.decodeBase64(data)))
        } catch {
            return .failure(error)
        }
    }

    /// Checks the PKCS#7 signature and the signer's chain (see ``AppReceiptSignature``), at the
    /// receipt's creation date: certificates that have expired since (Apple's WWDR G1
    /// intermediate, in 2023) still vouch for receipts signed while they were valid.
    package func checkSignature(_ bytes: [UInt8], at creationDate: Int64?) async -> (SignatureStatus, String?) {
        let validationTime = creationDate.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? clock.now()
        return await AppReceiptSignature.check(bytes, trust: trust, at: validationTime)
    }

    /// The signer's common name, or its whole subject when it has none.
    package static func commonName(of certificate: Certificate) -> String {
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return String(describing: attribute.value)
            }
        }
        return String(describing: certificate.subject)
    }

    /// swift-certificates' reasons may append a dump of the signed data after a colon: keep the
    /// sentence, drop the dump (never echo the payload).
    package static func sanitize(_ reason: String) -> String {
        let sentence = reason.split(separator: ":", maxSplits: 1).first.map(String.init) ?? reason
        return String(sentence.prefix(120))
    }

    package static func decodeBase64(_ data: String) throws(ReceiptDecodingError) -> [UInt8] {
        guard data.utf8.count <= maxInputLength else {
            throw ReceiptDecodingError(.malformed, "app receipt longer than \(maxInputLength) characters")
        }
        guard let bytes = ReceiptBase64.decode(data, alphabet: .standard, allowWhitespace: true), !bytes.isEmpty else {
            throw ReceiptDecodingError(.malformed, "app receipt is not base64")
        }
        return bytes
    }

    // MARK: - ASN.1 walk

    private static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    private static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
    private static let contextTag0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)

    /// Walks ContentInfo → SignedData → EncapsulatedContentInfo → the receipt attribute SET.
    package static func parse(_ bytes: [UInt8]) throws(ReceiptDecodingError) -> AppReceipt {
        let content: ArraySlice<UInt8>
        do {
            content = try signedContent(bytes)
        } catch let error as ReceiptDecodingError {
            throw error
        } catch {
            throw ReceiptDecodingError(
                .malformed, "app receipt is not a PKCS#7 SignedData structure (\(asn1Reason(error)))")
        }
        do {
            return try receiptPayload(content)
        } catch let error as ReceiptDecodingError {
            throw error
        } catch {
            throw ReceiptDecodingError(
                .malformed, "app receipt payload is not a receipt attribute set (\(asn1Reason(error)))")
        }
    }

    private static func asn1Reason(_ error: any Error) -> String {
        if let asn1 = error as? ASN1Error {
            return sanitize(String(describing: asn1.code))
        }
        return "invalid ASN.1"
    }

    private static func malformed(_ reason: String) -> ReceiptDecodingError {
        ReceiptDecodingError(.malformed, reason)
    }

    private static func children(_ node: ASN1Node, _ identifier: ASN1Identifier, _ what: String) throws
        -> ASN1NodeCollection
    {
        guard node.identifier == identifier, case .constructed(let nodes) = node.content else {
            throw malformed("app receipt \(what) is not the expected ASN.1 type")
        }
        return nodes
    }

    private static func signedContent(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> {
        let root = try BER.parse(bytes)
        var contentInfo = try children(root, .sequence, "ContentInfo").makeIterator()
        guard let typeNode = contentInfo.next(), try ASN1ObjectIdentifier(berEncoded: typeNode) == signedDataOID else {
            throw malformed("app receipt is not PKCS#7 SignedData")
        }
        guard let explicitNode = contentInfo.next() else { throw malformed("app receipt has no SignedData") }
        var wrapped = try children(explicitNode, contextTag0, "content").makeIterator()
        guard let signedDataNode = wrapped.next() else { throw malformed("app receipt has no SignedData") }
        var signedData = try children(signedDataNode, .sequence, "SignedData").makeIterator()
        guard let versionNode = signedData.next(), versionNode.identifier == .integer,
            let digestsNode = signedData.next(), digestsNode.identifier == .set,
            let encapNode = signedData.next()
        else {
            throw malformed("app receipt SignedData is incomplete")
        }
        var encap = try children(encapNode, .sequence, "EncapsulatedContentInfo").makeIterator()
        guard let contentTypeNode = encap.next(), try ASN1ObjectIdentifier(berEncoded: contentTypeNode) == dataOID
        else {
            throw malformed("app receipt content is not PKCS#7 data")
        }
        guard let eContentNode = encap.next() else {
            throw malformed("app receipt has no content (detached signature)")
        }
        var eContent = try children(eContentNode, contextTag0, "eContent").makeIterator()
        guard let octets = eContent.next() else { throw malformed("app receipt has no content") }
        return try ASN1OctetString(berEncoded: octets).bytes
    }

    private static func receiptPayload(_ content: ArraySlice<UInt8>) throws -> AppReceipt {
        let payload = try BER.parse(content)
        var receipt = AppReceipt()
        var seen = Set<Int64>()
        for attribute in try children(payload, .set, "payload") {
            let (type, value) = try receiptAttribute(attribute)
            if type == 17 {
                guard receipt.inAppPurchases.count < maxInAppPurchases else {
                    throw malformed("app receipt has more than \(maxInAppPurchases) in-app purchases")
                }
                receipt.inAppPurchases.append(try inAppPurchase(value, index: receipt.inAppPurchases.count + 1))
                continue
            }
            guard seen.insert(type).inserted else { continue }  // first occurrence wins
            switch type {
            case 0: receipt.receiptType = try string(value, "receipt type")
            case 2: receipt.bundleID = try string(value, "bundle id")
            case 3: receipt.appVersion = try string(value, "app version")
            case 12: receipt.creationDate = try date(value, "creation date")
            case 19: receipt.originalAppVersion = try string(value, "original app version")
            case 21: receipt.expirationDate = try date(value, "expiration date")
            default: break
            }
        }
        return receipt
    }

    private static func inAppPurchase(_ value: ArraySlice<UInt8>, index: Int) throws -> AppReceiptInAppPurchase {
        let node = try BER.parse(value)
        var fields: [Int64: ArraySlice<UInt8>] = [:]
        for attribute in try children(node, .set, "in-app purchase \(index)") {
            let (type, fieldValue) = try receiptAttribute(attribute)
            if fields[type] == nil { fields[type] = fieldValue }
        }
        guard let transactionValue = fields[1703], let transactionID = try string(transactionValue, "transaction id"),
            !transactionID.isEmpty
        else {
            throw malformed("app receipt in-app purchase \(index) has no transaction id")
        }
        var purchase = AppReceiptInAppPurchase(transactionID: transactionID)
        if let field = fields[1701] { purchase.quantity = try integer(field, "quantity").flatMap { Int(exactly: $0) } }
        if let field = fields[1702] { purchase.productID = try string(field, "product id") }
        if let field = fields[1705] { purchase.originalTransactionID = try string(field, "original transaction id") }
        if let field = fields[1704] { purchase.purchaseDate = try date(field, "purchase date") }
        if let field = fields[1706] { purchase.originalPurchaseDate = try date(field, "original purchase date") }
        if let field = fields[1708] { purchase.expiresDate = try date(field, "expires date") }
        if let field = fields[1712] { purchase.cancellationDate = try date(field, "cancellation date") }
        if let field = fields[1711] { purchase.webOrderLineItemID = try string(field, "web order line item id") }
        if let field = fields[1713] { purchase.isTrialPeriod = try integer(field, "is trial period").map { $0 != 0 } }
        if let field = fields[1719] {
            purchase.isInIntroOfferPeriod = try integer(field, "is in intro offer period").map { $0 != 0 }
        }
        if let field = fields[1721] { purchase.promotionalOfferID = try string(field, "promotional offer id") }
        return purchase
    }

    /// `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    private static func receiptAttribute(_ node: ASN1Node) throws -> (Int64, ArraySlice<UInt8>) {
        var fields = try children(node, .sequence, "receipt attribute").makeIterator()
        guard let typeNode = fields.next(), typeNode.identifier == .integer,
            case .primitive(let typeBytes) = typeNode.content,
            let type = signedInteger(typeBytes),
            let versionNode = fields.next(), versionNode.identifier == .integer,
            let valueNode = fields.next()
        else {
            throw malformed("app receipt attribute is not (type, version, value)")
        }
        return (type, try ASN1OctetString(berEncoded: valueNode).bytes)
    }

    /// A string field: UTF8String, IA5String or another string type.
    ///
    /// An INTEGER is written in decimal; an empty string is nil.
    private static func string(_ value: ArraySlice<UInt8>, _ what: String) throws -> String? {
        let node = try BER.parse(value)
        guard case .primitive(let bytes) = node.content else {
            throw malformed("app receipt \(what) is not a string")
        }
        switch node.identifier {
        case .integer:
            guard let number = signedInteger(bytes) else { throw malformed("app receipt \(what) is out of range") }
            return String(number)
        case .utf8String, .ia5String, .printableString, .visibleString, .numericString, .teletexString:
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw malformed("app receipt \(what) is not UTF-8")
            }
            return text.isEmpty ? nil : text
        default:
            throw malformed("app receipt \(what) is not a string")
        }
    }

    private static func integer(_ value: ArraySlice<UInt8>, _ what: String) throws -> Int64? {
        let node = try BER.parse(value)
        guard node.identifier == .integer, case .primitive(let bytes) = node.content,
            let number = signedInteger(bytes)
        else {
            throw malformed("app receipt \(what) is not an integer")
        }
        return number
    }

    private static func date(_ value: ArraySlice<UInt8>, _ what: String) throws -> Int64? {
        guard let text = try string(value, what) else { return nil }
        guard let millis = ReceiptDates.rfc3339Millis(text) else {
            throw malformed("app receipt \(what) is not an RFC 3339 date")
        }
        return millis
    }

    /// A DER INTEGER's two's-complement content as Int64, nil when empty or wider than 64 bits.
    package static func signedInteger(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard let first = bytes.first else { return nil }
        var significant = bytes[...]
        // Drop redundant sign-extension bytes.
        while significant.count > 1, let lead = significant.first,
            lead == 0x00 && significant[significant.index(after: significant.startIndex)] & 0x80 == 0
                || lead == 0xFF && significant[significant.index(after: significant.startIndex)] & 0x80 != 0
        {
            significant = significant.dropFirst()
        }
        if significant.count > 8 {
            // A positive value whose top byte is a 0x00 pad still fits when 9 bytes long.
            guard significant.count == 9, significant.first == 0x00 else { return nil }
            significant = significant.dropFirst()
            var unsigned: UInt64 = 0
            for byte in significant { unsigned = unsigned << 8 | UInt64(byte) }
            return Int64(exactly: unsigned)
        }
        var result: Int64 = first & 0x80 != 0 ? -1 : 0
        for byte in significant { result = result << 8 | Int64(byte) }
        return result
    }
}
