import Foundation
import IAPRecon
@_spi(CMS) import X509

/// Builds PKCS#7 app receipts (DER, CMS SignedData with attached content) signed by a
/// ``SigningAuthority``: what the App Store simulator and the demo hand out, and what the
/// offline decoder reads back. Never used against Apple.
public enum AppReceiptBuilder {
    /// One in-app purchase of a receipt.
    public struct Purchase: Sendable, Hashable {
        public var productID: String
        public var quantity: Int
        public var transactionID: String
        public var originalTransactionID: String
        public var purchaseDate: Int64
        public var expiresDate: Int64?
        public var cancellationDate: Int64?
        public var webOrderLineItemID: Int64

        public init(
            productID: String, quantity: Int = 1, transactionID: String, originalTransactionID: String? = nil,
            purchaseDate: Int64, expiresDate: Int64? = nil, cancellationDate: Int64? = nil, webOrderLineItemID: Int64 = 0
        ) {
            self.productID = productID
            self.quantity = quantity
            self.transactionID = transactionID
            self.originalTransactionID = originalTransactionID ?? transactionID
            self.purchaseDate = purchaseDate
            self.expiresDate = expiresDate
            self.cancellationDate = cancellationDate
            self.webOrderLineItemID = webOrderLineItemID
        }
    }

    /// The base64 of a signed receipt.
    ///
    /// - Parameters:
    ///   - receiptType: `Production`, `ProductionSandbox` or `Xcode`.
    ///   - createdAt: receipt creation date (epoch ms); the CMS signing time too.
    public static func base64Receipt(
        bundleID: String, appVersion: String = "1.0", receiptType: String, createdAt: Int64, purchases: [Purchase],
        authority: SigningAuthority
    ) throws -> String {
        let payload = self.payload(
            bundleID: bundleID, appVersion: appVersion, receiptType: receiptType, createdAt: createdAt, purchases: purchases)
        let signed = try CMS.sign(
            payload, signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: [authority.intermediate],
            certificate: authority.leaf, privateKey: Certificate.PrivateKey(authority.leafKey),
            signingTime: Date(timeIntervalSince1970: TimeInterval(createdAt / 1000)), detached: false)
        return Data(signed).base64EncodedString()
    }

    /// The receipt's attribute SET, DER.
    static func payload(bundleID: String, appVersion: String, receiptType: String, createdAt: Int64, purchases: [Purchase]) -> [UInt8] {
        var attributes: [[UInt8]] = [
            attribute(0, utf8(receiptType)), attribute(2, utf8(bundleID)), attribute(3, utf8(appVersion)),
            attribute(4, Array(repeating: 1, count: 16)), attribute(5, Array(repeating: 2, count: 20)),
            attribute(12, ia5(Timestamp.iso(createdAt))), attribute(19, utf8("1.0")),
        ]
        for p in purchases {
            var fields = [
                attribute(1701, integer(Int64(p.quantity))), attribute(1702, utf8(p.productID)),
                attribute(1703, utf8(p.transactionID)), attribute(1705, utf8(p.originalTransactionID)),
                attribute(1704, ia5(Timestamp.iso(p.purchaseDate))), attribute(1706, ia5(Timestamp.iso(p.purchaseDate))),
                attribute(1711, integer(p.webOrderLineItemID)),
            ]
            if let expires = p.expiresDate { fields.append(attribute(1708, ia5(Timestamp.iso(expires)))) }
            if let cancelled = p.cancellationDate { fields.append(attribute(1712, ia5(Timestamp.iso(cancelled)))) }
            attributes.append(attribute(17, set(fields)))
        }
        return set(attributes)
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        if content.count < 0x80 {
            out.append(UInt8(content.count))
        } else {
            var length = content.count
            var bytes: [UInt8] = []
            while length > 0 {
                bytes.insert(UInt8(length & 0xFF), at: 0)
                length >>= 8
            }
            out.append(0x80 | UInt8(bytes.count))
            out += bytes
        }
        return out + content
    }

    static func integer(_ value: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian, Array.init)
        while bytes.count > 1, (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0) {
            bytes.removeFirst()
        }
        return tlv(0x02, bytes)
    }

    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func ia5(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }
    static func attribute(_ type: Int64, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, integer(type) + integer(1) + tlv(0x04, value))
    }
    static func set(_ members: [[UInt8]]) -> [UInt8] { tlv(0x31, members.flatMap { $0 }) }
}
