import Crypto
import Foundation
import ReconModel
import SwiftASN1
import _CryptoExtras
@_spi(FixedExpiryValidationTime) import X509

/// The offline signature check of a PKCS#7 app receipt, as Apple signs them.
///
/// Reads the SignedData as BER (Apple and Xcode write indefinite lengths and constructed OCTET
/// STRINGs), finds the SignerInfo's certificate among the certificates embedded in the receipt,
/// checks the signature (RFC 5652 §5.4: over the content octets, or over the DER SET of the signed
/// attributes whose `messageDigest` must equal the content's digest), then builds a chain from
/// that certificate to a trusted root at the given time. RSA PKCS#1 v1.5 with SHA-1 or SHA-2
/// (`rsaEncryption`, `sha1WithRSAEncryption`, `sha256WithRSAEncryption`, ...) is what Apple uses;
/// ECDSA P-256 with SHA-256 is accepted too. All cryptography is swift-crypto's.
package enum AppReceiptSignature {
    /// The most certificates a receipt may carry (Apple's carry 3): chain building tries every
    /// path through them.
    package static let maxCertificates = 6

    /// The result of a check: `.verified`, `.invalid` (signature or structure) or `.untrusted`
    /// (chain), with a one-line reason unless verified.
    package static func check(
        _ bytes: [UInt8], trust: TrustStore, at validationTime: Date
    ) async -> (SignatureStatus, String?) {
        let signed: SignedParts
        do {
            signed = try SignedParts(bytes)
        } catch let failure as CheckFailure {
            return (.invalid, failure.reason)
        } catch {
            return (.invalid, "PKCS#7 structure is not valid ASN.1")
        }
        guard let signer = signed.signerCertificate() else {
            return (.untrusted, "the receipt does not carry the signer's certificate")
        }
        if let problem = signed.signatureProblem(signer: signer) {
            return (.invalid, "PKCS#7 signature check failed: \(problem)")
        }
        var verifier = Verifier(rootCertificates: trust.certificateStore) {
            RFC5280Policy(fixedExpiryValidationTime: validationTime)
            AppleChainPolicy()
        }
        let others = signed.certificates.filter { $0 != signer }
        switch await verifier.validate(leaf: signer, intermediates: CertificateStore(others)) {
        case .validCertificate:
            return (.verified, nil)
        case .couldNotValidate(let failures):
            let why = failures.first.map { ": \($0.policyFailureReason.description)" } ?? ""
            return (
                .untrusted,
                "the signature matches signer '\(AppReceiptDecoder.commonName(of: signer))', whose certificate "
                    + "does not chain to a trusted root\(AppReceiptDecoder.sanitize(why))"
            )
        }
    }

    /// A structural problem, stated in one line without echoing the payload.
    package struct CheckFailure: Error {
        package let reason: String
        package init(_ reason: String) { self.reason = reason }
    }

    /// Hash algorithms a SignerInfo may name.
    package enum HashAlgorithm: Equatable {
        case sha1, sha256, sha384, sha512

        package init?(digestOID oid: ASN1ObjectIdentifier) {
            switch oid {
            case [1, 3, 14, 3, 2, 26]: self = .sha1
            case [2, 16, 840, 1, 101, 3, 4, 2, 1]: self = .sha256
            case [2, 16, 840, 1, 101, 3, 4, 2, 2]: self = .sha384
            case [2, 16, 840, 1, 101, 3, 4, 2, 3]: self = .sha512
            default: return nil
            }
        }

        package func digest(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .sha1: return Array(Insecure.SHA1.hash(data: bytes))
            case .sha256: return Array(SHA256.hash(data: bytes))
            case .sha384: return Array(SHA384.hash(data: bytes))
            case .sha512: return Array(SHA512.hash(data: bytes))
            }
        }

        /// RSA PKCS#1 v1.5 over this hash of `bytes`.
        package func isValidRSA(_ signature: [UInt8], for bytes: [UInt8], key: _RSA.Signing.PublicKey) -> Bool {
            let rsa = _RSA.Signing.RSASignature(rawRepresentation: signature)
            switch self {
            case .sha1:
                return key.isValidSignature(rsa, for: Insecure.SHA1.hash(data: bytes), padding: .insecurePKCS1v1_5)
            case .sha256:
                return key.isValidSignature(rsa, for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5)
            case .sha384:
                return key.isValidSignature(rsa, for: SHA384.hash(data: bytes), padding: .insecurePKCS1v1_5)
            case .sha512:
                return key.isValidSignature(rsa, for: SHA512.hash(data: bytes), padding: .insecurePKCS1v1_5)
            }
        }
    }

    /// SignerInfo `signatureAlgorithm`s: RSA (bare, or naming its hash) or ECDSA with a hash.
    package enum SignatureScheme {
        case rsa(HashAlgorithm?)
        case ecdsa(HashAlgorithm)

        package init?(_ oid: ASN1ObjectIdentifier) {
            switch oid {
            case [1, 2, 840, 113_549, 1, 1, 1]: self = .rsa(nil)
            case [1, 2, 840, 113_549, 1, 1, 5]: self = .rsa(.sha1)
            case [1, 2, 840, 113_549, 1, 1, 11]: self = .rsa(.sha256)
            case [1, 2, 840, 113_549, 1, 1, 12]: self = .rsa(.sha384)
            case [1, 2, 840, 113_549, 1, 1, 13]: self = .rsa(.sha512)
            case [1, 2, 840, 10045, 4, 3, 2]: self = .ecdsa(.sha256)
            case [1, 2, 840, 10045, 4, 3, 3]: self = .ecdsa(.sha384)
            default: return nil
            }
        }
    }

    /// The pieces of a SignedData the check needs.
    package struct SignedParts {
        /// The encapsulated content's octets (segments of a constructed OCTET STRING joined).
        package var content: [UInt8]
        package var certificates: [Certificate]
        /// SignerInfo `sid`: issuer and serial number, or a subject key identifier.
        package var signerIssuer: DistinguishedName?
        package var signerSerial: [UInt8]?
        package var signerKeyIdentifier: [UInt8]?
        package var digestAlgorithm: ASN1ObjectIdentifier
        /// The signed attributes re-tagged as the DER `SET OF` that is signed, with their values.
        package var signedAttributes: (der: [UInt8], nodes: [ASN1Node])?
        package var signatureAlgorithm: ASN1ObjectIdentifier
        package var signature: [UInt8]

        private static let signedDataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
        private static let contextTag0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        private static let contextTag1 = ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)

        package init(_ bytes: [UInt8]) throws {
            let root = try BER.parse(bytes)
            let contentInfo = try Self.children(root, .sequence, "ContentInfo")
            guard contentInfo.count == 2, try ASN1ObjectIdentifier(berEncoded: contentInfo[0]) == Self.signedDataOID
            else { throw CheckFailure("the receipt is not PKCS#7 SignedData") }
            let wrapper = try Self.children(contentInfo[1], Self.contextTag0, "content")
            guard let signedDataNode = wrapper.first else { throw CheckFailure("the receipt has no SignedData") }
            let fields = try Self.children(signedDataNode, .sequence, "SignedData")
            guard fields.count >= 4, let signerInfosNode = fields.last else {
                throw CheckFailure("the receipt's SignedData is incomplete")
            }
            let encap = try Self.children(fields[2], .sequence, "EncapsulatedContentInfo")
            guard encap.count == 2 else { throw CheckFailure("the receipt has no content (detached signature)") }
            let eContent = try Self.children(encap[1], Self.contextTag0, "eContent")
            guard let octets = eContent.first else { throw CheckFailure("the receipt has no content") }
            content = Array(try ASN1OctetString(berEncoded: octets).bytes)

            certificates = []
            for field in fields[3..<(fields.count - 1)] where field.identifier == Self.contextTag0 {
                let members = try Self.children(field, Self.contextTag0, "certificates")
                guard members.count <= AppReceiptSignature.maxCertificates else {
                    throw CheckFailure(
                        "the receipt carries \(members.count) certificates; at most "
                            + "\(AppReceiptSignature.maxCertificates) are accepted")
                }
                for member in members where member.identifier == .sequence {
                    guard let certificate = try? Certificate(derEncoded: Array(member.encodedBytes)) else {
                        throw CheckFailure("a certificate in the receipt is not valid X.509")
                    }
                    certificates.append(certificate)
                }
            }

            let signerInfos = try Self.children(signerInfosNode, .set, "SignerInfos")
            guard signerInfos.count == 1 else {
                throw CheckFailure("the receipt has \(signerInfos.count) signers; exactly 1 is expected")
            }
            let info = try Self.children(signerInfos[0], .sequence, "SignerInfo")
            guard info.count >= 5 else { throw CheckFailure("the receipt's SignerInfo is incomplete") }
            let sid = info[1]
            if sid.identifier == .sequence {
                let issuerAndSerial = try Self.children(sid, .sequence, "signer id")
                guard issuerAndSerial.count == 2, issuerAndSerial[1].identifier == .integer,
                    case .primitive(let serial) = issuerAndSerial[1].content
                else { throw CheckFailure("the receipt's signer id is not issuer and serial number") }
                signerIssuer = try DistinguishedName(derEncoded: Array(issuerAndSerial[0].encodedBytes))
                signerSerial = Array(serial)
            } else if sid.identifier == Self.contextTag0, case .primitive(let keyID) = sid.content {
                signerKeyIdentifier = Array(keyID)
            } else {
                throw CheckFailure("the receipt's signer id is not recognised")
            }
            digestAlgorithm = try Self.algorithm(info[2], "digest algorithm")
            var next = 3
            if info[next].identifier == Self.contextTag0 {
                let attributes = Array(try Self.children(info[next], Self.contextTag0, "signed attributes"))
                // RFC 5652 §5.4: the signature covers the DER of the attributes as an explicit SET OF.
                var serializer = DER.Serializer()
                serializer.appendConstructedNode(identifier: .set) { inner in
                    for attribute in attributes { inner.serialize(attribute) }
                }
                signedAttributes = (serializer.serializedBytes, attributes)
                next += 1
            }
            guard info.count > next + 1 else { throw CheckFailure("the receipt's SignerInfo is incomplete") }
            signatureAlgorithm = try Self.algorithm(info[next], "signature algorithm")
            guard info[next + 1].identifier == .octetString else {
                throw CheckFailure("the receipt's signature is not an OCTET STRING")
            }
            signature = Array(try ASN1OctetString(berEncoded: info[next + 1]).bytes)
        }

        /// The embedded certificate the SignerInfo names.
        package func signerCertificate() -> Certificate? {
            certificates.first { certificate in
                if let signerKeyIdentifier {
                    guard let ski = try? certificate.extensions.subjectKeyIdentifier else { return false }
                    return Array(ski.keyIdentifier) == signerKeyIdentifier
                }
                return certificate.issuer == signerIssuer
                    && Array(certificate.serialNumber.bytes) == signerSerial
            }
        }

        /// Why the signature does not hold for `signer`'s key, or nil when it does.
        package func signatureProblem(signer: Certificate) -> String? {
            guard let hash = HashAlgorithm(digestOID: digestAlgorithm) else {
                return "digest algorithm \(digestAlgorithm) is not supported"
            }
            guard let scheme = SignatureScheme(signatureAlgorithm) else {
                return "signature algorithm \(signatureAlgorithm) is not supported"
            }
            var signedBytes = content
            if let signedAttributes {
                guard let stated = Self.messageDigest(in: signedAttributes.nodes) else {
                    return "the signed attributes carry no message digest"
                }
                guard stated == hash.digest(content) else {
                    return "the content does not match the signed message digest"
                }
                signedBytes = signedAttributes.der
            }
            switch scheme {
            case .rsa(let named):
                if let named, named != hash { return "signature and digest algorithms disagree" }
                guard let key = _RSA.Signing.PublicKey(signer.publicKey) else {
                    return "the signer's key is not an RSA key"
                }
                return hash.isValidRSA(signature, for: signedBytes, key: key) ? nil : "signature does not match"
            case .ecdsa(let named):
                guard named == hash, hash == .sha256 else { return "signature and digest algorithms disagree" }
                guard let key = P256.Signing.PublicKey(signer.publicKey),
                    let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature)
                else { return "the signer's key or signature is not ECDSA P-256" }
                return key.isValidSignature(ecdsa, for: SHA256.hash(data: signedBytes))
                    ? nil : "signature does not match"
            }
        }

        private static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]

        /// The `messageDigest` signed attribute's octets.
        private static func messageDigest(in attributes: [ASN1Node]) -> [UInt8]? {
            for attribute in attributes {
                guard let parts = try? children(attribute, .sequence, "attribute"), parts.count == 2,
                    (try? ASN1ObjectIdentifier(berEncoded: parts[0])) == messageDigestOID,
                    let values = try? children(parts[1], .set, "attribute values"), values.count == 1,
                    let octets = try? ASN1OctetString(berEncoded: values[0])
                else { continue }
                return Array(octets.bytes)
            }
            return nil
        }

        private static func algorithm(_ node: ASN1Node, _ what: String) throws -> ASN1ObjectIdentifier {
            let parts = try children(node, .sequence, what)
            guard let first = parts.first else { throw CheckFailure("the receipt's \(what) is empty") }
            return try ASN1ObjectIdentifier(berEncoded: first)
        }

        private static func children(_ node: ASN1Node, _ identifier: ASN1Identifier, _ what: String) throws
            -> [ASN1Node]
        {
            guard node.identifier == identifier, case .constructed(let nodes) = node.content else {
                throw CheckFailure("the receipt's \(what) is not the expected ASN.1 type")
            }
            return Array(nodes)
        }
    }
}
