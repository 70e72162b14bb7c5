import Crypto
import Foundation
import SwiftASN1
import X509

/// A throw-away certificate authority that signs StoreKit 2 style JWS for tests, the App Store
/// simulator and the demo.
///
/// It builds the same shape as Apple's chain: a P-256 root CA, an intermediate CA carrying
/// Apple's WWDR marker extension (OID 1.2.840.113635.100.6.2.1), and a leaf carrying Apple's
/// StoreKit signing marker (OID 1.2.840.113635.100.6.11.1). Keys are derived from `seed`, so the
/// same seed always gives the same keys (certificate signatures still vary, as ECDSA is
/// randomised); validity dates are fixed by ``Options`` so tests do not depend on the clock.
///
/// Trust its ``rootDER``/``rootPEM`` (e.g. `--trusted-root`) to make its JWS verify.
public struct SigningAuthority: Sendable {
    /// How to build the chain, including deliberately broken variants for tests.
    public struct Options: Sendable, Hashable {
        /// Derives every key; the same seed gives the same keys.
        public var seed: String
        /// Start of validity of the root and the intermediate.
        public var notValidBefore: Date
        /// End of validity of the root and the intermediate.
        public var notValidAfter: Date
        /// Start of the leaf's validity; defaults to ``notValidBefore``.
        public var leafNotValidBefore: Date?
        /// End of the leaf's validity; defaults to ``notValidAfter``.
        ///
        /// Set it early for an expired-leaf test.
        public var leafNotValidAfter: Date?
        /// Whether the intermediate carries OID 1.2.840.113635.100.6.2.1 (false: broken chain).
        public var intermediateMarker: Bool
        /// Whether the leaf carries OID 1.2.840.113635.100.6.11.1 (false: broken chain).
        public var leafMarker: Bool
        /// The organisation name put in every subject, to tell authorities apart.
        public var organization: String

        /// Options for a valid chain from 2020-01-01 to 2045-01-01 UTC.
        public init(
            seed: String = "iap-recon test authority",
            notValidBefore: Date = Date(timeIntervalSince1970: 1_577_836_800),
            notValidAfter: Date = Date(timeIntervalSince1970: 2_366_841_600),
            leafNotValidBefore: Date? = nil,
            leafNotValidAfter: Date? = nil,
            intermediateMarker: Bool = true,
            leafMarker: Bool = true,
            organization: String = "iap-recon Test CA"
        ) {
            self.seed = seed
            self.notValidBefore = notValidBefore
            self.notValidAfter = notValidAfter
            self.leafNotValidBefore = leafNotValidBefore
            self.leafNotValidAfter = leafNotValidAfter
            self.intermediateMarker = intermediateMarker
            self.leafMarker = leafMarker
            self.organization = organization
        }
    }

    /// OID of the extension Apple puts on its WWDR intermediate (1.2.840.113635.100.6.2.1).
    public static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// OID of the extension Apple puts on its StoreKit signing leaf (1.2.840.113635.100.6.11.1).
    public static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    /// The options this authority was built with.
    public let options: Options
    /// The self-signed root CA certificate.
    public let root: Certificate
    /// The intermediate CA certificate, issued by ``root``.
    public let intermediate: Certificate
    /// The signing leaf certificate, issued by ``intermediate``.
    public let leaf: Certificate
    /// The root's private key, to issue more certificates (a CMS signer, say).
    public let rootKey: P256.Signing.PrivateKey
    /// The intermediate's private key.
    public let intermediateKey: P256.Signing.PrivateKey
    /// The leaf's private key: it signs the JWS.
    public let leafKey: P256.Signing.PrivateKey
    /// DER of ``root``.
    public let rootDER: [UInt8]
    /// DER of ``intermediate``.
    public let intermediateDER: [UInt8]
    /// DER of ``leaf``.
    public let leafDER: [UInt8]

    /// PEM of ``root`` (`-----BEGIN CERTIFICATE-----`), ready to write to a `--trusted-root` file.
    public var rootPEM: String {
        SigningAuthority.pem(rootDER)
    }

    /// Builds the three certificates.
    ///
    /// - Parameter options: validity, markers and seed; the defaults give a valid chain.
    /// - Throws: an error from swift-certificates if a certificate cannot be built (not expected
    ///   with sane dates: `notValidBefore` must precede `notValidAfter`).
    public init(options: Options = Options()) throws {
        self.options = options
        let rootKey = try SigningAuthority.deriveKey(seed: options.seed, label: "root")
        let intermediateKey = try SigningAuthority.deriveKey(seed: options.seed, label: "intermediate")
        let leafKey = try SigningAuthority.deriveKey(seed: options.seed, label: "leaf")

        let rootName = try DistinguishedName {
            CountryName("US")
            OrganizationName(options.organization)
            CommonName("\(options.organization) Root")
        }
        let intermediateName = try DistinguishedName {
            CountryName("US")
            OrganizationName(options.organization)
            CommonName("\(options.organization) Intermediate")
        }
        let leafName = try DistinguishedName {
            CountryName("US")
            OrganizationName(options.organization)
            CommonName("\(options.organization) StoreKit Signing")
        }

        let caKeyUsage = KeyUsage(keyCertSign: true, cRLSign: true)
        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(1),
            publicKey: .init(rootKey.publicKey),
            notValidBefore: options.notValidBefore,
            notValidAfter: options.notValidAfter,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(caKeyUsage)
            },
            issuerPrivateKey: .init(rootKey)
        )

        var intermediateExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(caKeyUsage)
        }
        if options.intermediateMarker {
            try intermediateExtensions.append(SigningAuthority.markerExtension(SigningAuthority.intermediateMarkerOID))
        }
        let intermediate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(2),
            publicKey: .init(intermediateKey.publicKey),
            notValidBefore: options.notValidBefore,
            notValidAfter: options.notValidAfter,
            issuer: rootName,
            subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: intermediateExtensions,
            issuerPrivateKey: .init(rootKey)
        )

        var leafExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        if options.leafMarker {
            try leafExtensions.append(SigningAuthority.markerExtension(SigningAuthority.leafMarkerOID))
        }
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(3),
            publicKey: .init(leafKey.publicKey),
            notValidBefore: options.leafNotValidBefore ?? options.notValidBefore,
            notValidAfter: options.leafNotValidAfter ?? options.notValidAfter,
            issuer: intermediateName,
            subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: leafExtensions,
            issuerPrivateKey: .init(intermediateKey)
        )

        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        self.leafKey = leafKey
        self.rootDER = try SigningAuthority.der(root)
        self.intermediateDER = try SigningAuthority.der(intermediate)
        self.leafDER = try SigningAuthority.der(leaf)
    }

    /// A P-256 key derived from `seed` and `label` (SHA-256, re-hashed until it is a valid scalar).
    static func deriveKey(seed: String, label: String) throws -> P256.Signing.PrivateKey {
        var material = Array("\(seed)|\(label)".utf8)
        var lastError: (any Error)?
        for _ in 0..<16 {
            material = Array(SHA256.hash(data: material))
            do {
                return try P256.Signing.PrivateKey(rawRepresentation: material)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? CryptoKitError.incorrectKeySize
    }

    /// A non-critical extension whose value is ASN.1 NULL, as Apple's marker extensions are.
    static func markerExtension(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    /// DER bytes of a certificate.
    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// PEM text (64-column base64 lines) of a DER certificate.
    static func pem(_ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }
}

/// Signs payloads as compact ES256 JWS with an `x5c` header, the way the App Store does.
///
/// For tests it can also build broken variants: a short chain, no `x5c`, another `alg`, or a
/// corrupted signature.
public enum JWSSigner {
    /// Which certificates go into the `x5c` header.
    public enum ChainShape: String, Sendable, Hashable, CaseIterable {
        /// leaf, intermediate, root (what Apple sends).
        case full
        /// leaf, intermediate: one certificate short.
        case leafAndIntermediate
        /// the leaf alone.
        case leafOnly
        /// no `x5c` header at all.
        case none
    }

    /// Knobs for building valid and deliberately broken JWS.
    public struct Options: Sendable, Hashable {
        /// The `x5c` certificates to include.
        public var chain: ChainShape
        /// The `alg` header value; anything but `ES256` must be rejected by a verifier.
        ///
        /// The signature is still ES256 (or empty for `none`).
        public var algorithm: String
        /// Flip one bit of the signature.
        public var corruptSignature: Bool
        /// Extra header members as raw JSON values (`"kid": "\"Apple_Xcode_Key\""`), sorted by key.
        public var extraHeader: [String: String]

        /// Options for a valid JWS.
        public init(
            chain: ChainShape = .full, algorithm: String = "ES256", corruptSignature: Bool = false,
            extraHeader: [String: String] = [:]
        ) {
            self.chain = chain
            self.algorithm = algorithm
            self.corruptSignature = corruptSignature
            self.extraHeader = extraHeader
        }
    }

    /// Signs an `Encodable` payload (JSON with sorted keys, slashes unescaped).
    ///
    /// - Parameters:
    ///   - payload: the claims; Apple's dates are integer milliseconds since 1970.
    ///   - authority: whose leaf key signs and whose certificates go into `x5c`.
    ///   - options: variants for tests; the default is a valid JWS.
    /// - Returns: the compact JWS `header.payload.signature`.
    /// - Throws: the encoder's error if `payload` cannot be encoded, or a CryptoKit error.
    public static func sign(
        payload: some Encodable, authority: SigningAuthority, options: Options = Options()
    ) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(payload)
        return try sign(payloadData: data, authority: authority, options: options)
    }

    /// Signs raw payload bytes (normally a UTF-8 JSON object).
    ///
    /// - Parameters:
    ///   - payloadData: the exact bytes to put (base64url) in the payload segment.
    ///   - authority: whose leaf key signs and whose certificates go into `x5c`.
    ///   - options: variants for tests; the default is a valid JWS.
    /// - Returns: the compact JWS `header.payload.signature`.
    /// - Throws: a CryptoKit error if signing fails.
    public static func sign(
        payloadData: Data, authority: SigningAuthority, options: Options = Options()
    ) throws -> String {
        let header = headerJSON(authority: authority, options: options)
        let signingInput = jwsBase64URL(Array(header.utf8)) + "." + jwsBase64URL(Array(payloadData))
        if options.algorithm.lowercased() == "none" {
            return signingInput + "."
        }
        var signature = Array(try authority.leafKey.signature(for: Data(signingInput.utf8)).rawRepresentation)
        if options.corruptSignature, !signature.isEmpty {
            signature[signature.count / 2] ^= 0x01
        }
        return signingInput + "." + jwsBase64URL(signature)
    }

    /// The header JSON: `alg`, `typ`, optional `x5c`, then the extra members, keys sorted.
    static func headerJSON(authority: SigningAuthority, options: Options) -> String {
        var members: [String: String] = options.extraHeader
        members["alg"] = jsonString(options.algorithm)
        members["typ"] = jsonString("JWT")
        let certificates: [[UInt8]]
        switch options.chain {
        case .full: certificates = [authority.leafDER, authority.intermediateDER, authority.rootDER]
        case .leafAndIntermediate: certificates = [authority.leafDER, authority.intermediateDER]
        case .leafOnly: certificates = [authority.leafDER]
        case .none: certificates = []
        }
        if options.chain != .none {
            members["x5c"] =
                "["
                + certificates.map { "\"" + Data($0).base64EncodedString() + "\"" }
                .joined(separator: ",") + "]"
        }
        let body = members.keys.sorted().map { key in
            jsonString(key) + ":" + (members[key] ?? "null")
        }
        return "{" + body.joined(separator: ",") + "}"
    }

    /// A JSON string literal for `text` (quotes, backslashes and control characters escaped).
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Base64url without padding (RFC 7515 §2).
func jwsBase64URL(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return String(
        text.map { character -> Character in
            switch character {
            case "+": return "-"
            case "/": return "_"
            default: return character
            }
        })
}
