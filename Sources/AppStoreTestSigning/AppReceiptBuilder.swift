import Foundation
import IAPRecon
import SwiftASN1
import _CryptoExtras
@_spi(CMS) import X509

/// Builds PKCS#7 app receipts (DER, CMS SignedData with attached content) signed by a ``SigningAuthority``: what
/// the App Store simulator and the demo hand out, and what the offline decoder reads back.
///
/// Never used against Apple.
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
            purchaseDate: Int64, expiresDate: Int64? = nil, cancellationDate: Int64? = nil,
            webOrderLineItemID: Int64 = 0
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
            bundleID: bundleID, appVersion: appVersion, receiptType: receiptType, createdAt: createdAt,
            purchases: purchases)
        let signed = try CMS.sign(
            payload, signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: [authority.intermediate],
            certificate: authority.leaf, privateKey: Certificate.PrivateKey(authority.leafKey),
            signingTime: Date(timeIntervalSince1970: TimeInterval(createdAt / 1000)), detached: false)
        return Data(signed).base64EncodedString()
    }

    /// The base64 of a receipt signed the way Apple signs them: RSA PKCS#1 v1.5 with SHA-256
    /// (newer receipts) or SHA-1 (older ones), by an RSA ``RSAReceiptSigningChain`` embedded in the
    /// receipt; with signed attributes (a signing time and the content's message digest) or, as
    /// Apple's older receipts, without.
    public static func base64Receipt(
        bundleID: String, appVersion: String = "1.0", receiptType: String, createdAt: Int64, purchases: [Purchase],
        rsaChain chain: RSAReceiptSigningChain, sha1: Bool = false, signedAttributes: Bool = false
    ) throws -> String {
        let payload = self.payload(
            bundleID: bundleID, appVersion: appVersion, receiptType: receiptType, createdAt: createdAt,
            purchases: purchases)
        let signed = try CMS.sign(
            payload, signatureAlgorithm: sha1 ? .sha1WithRSAEncryption : .sha256WithRSAEncryption,
            additionalIntermediateCertificates: [chain.intermediate], certificate: chain.leaf,
            privateKey: Certificate.PrivateKey(chain.leafKey),
            signingTime: signedAttributes ? Date(timeIntervalSince1970: TimeInterval(createdAt / 1000)) : nil,
            detached: false)
        return Data(signed).base64EncodedString()
    }

    /// The receipt's attribute SET, DER.
    static func payload(
        bundleID: String, appVersion: String, receiptType: String, createdAt: Int64, purchases: [Purchase]
    ) -> [UInt8] {
        var attributes: [[UInt8]] = [
            attribute(0, utf8(receiptType)), attribute(2, utf8(bundleID)), attribute(3, utf8(appVersion)),
            attribute(4, Array(repeating: 1, count: 16)), attribute(5, Array(repeating: 2, count: 20)),
            attribute(12, ia5(Timestamp.iso(createdAt))), attribute(19, utf8("1.0")),
        ]
        for p in purchases {
            var fields = [
                attribute(1701, integer(Int64(p.quantity))), attribute(1702, utf8(p.productID)),
                attribute(1703, utf8(p.transactionID)), attribute(1705, utf8(p.originalTransactionID)),
                attribute(1704, ia5(Timestamp.iso(p.purchaseDate))),
                attribute(1706, ia5(Timestamp.iso(p.purchaseDate))),
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
        while bytes.count > 1, (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0)
        {
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

/// A throw-away RSA chain shaped like Apple's receipt signers: root → intermediate carrying Apple's WWDR marker
/// (1.2.840.113635.100.6.2.1) → leaf carrying Apple's receipt signing marker (1.2.840.113635.100.6.11.1), every
/// certificate signed with `sha256WithRSAEncryption`.
///
/// Trust its ``rootDER`` (`--trusted-root`) to make its receipts verify. Keys are fresh 2048-bit RSA keys.
public struct RSAReceiptSigningChain: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    /// The leaf's private key: it signs the receipts.
    public let leafKey: _RSA.Signing.PrivateKey
    /// DER of ``root``.
    public let rootDER: [UInt8]

    /// Builds the chain, valid from `notValidBefore` to `notValidAfter` (the leaf until
    /// `leafNotValidAfter` when given).
    public init(
        organization: String = "iap-recon Receipt Test CA",
        notValidBefore: Date = Date(timeIntervalSince1970: 1_577_836_800),
        notValidAfter: Date = Date(timeIntervalSince1970: 2_366_841_600), leafNotValidAfter: Date? = nil
    ) throws {
        let rootKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let intermediateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let leafKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        func name(_ commonName: String) throws -> DistinguishedName {
            try DistinguishedName {
                CountryName("US")
                OrganizationName(organization)
                CommonName("\(organization) \(commonName)")
            }
        }
        let caKeyUsage = KeyUsage(keyCertSign: true, cRLSign: true)
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(1), publicKey: .init(rootKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: try name("Root"),
            subject: try name("Root"), signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(caKeyUsage)
            },
            issuerPrivateKey: .init(rootKey))
        var intermediateExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(caKeyUsage)
        }
        try intermediateExtensions.append(SigningAuthority.markerExtension(SigningAuthority.intermediateMarkerOID))
        let intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(2), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: try name("Root"),
            subject: try name("Intermediate"), signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: intermediateExtensions, issuerPrivateKey: .init(rootKey))
        var leafExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        try leafExtensions.append(SigningAuthority.markerExtension(SigningAuthority.leafMarkerOID))
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(3), publicKey: .init(leafKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: leafNotValidAfter ?? notValidAfter,
            issuer: try name("Intermediate"), subject: try name("Receipt Signing"),
            signatureAlgorithm: .sha256WithRSAEncryption, extensions: leafExtensions,
            issuerPrivateKey: .init(intermediateKey))
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
        var serializer = DER.Serializer()
        try serializer.serialize(root)
        self.rootDER = serializer.serializedBytes
    }
}
