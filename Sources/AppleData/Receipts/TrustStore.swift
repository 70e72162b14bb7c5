import Foundation
import ReconModel
import SwiftASN1
import X509

/// The root certificates every offline signature check (JWS and PKCS#7 alike) must chain to.
///
/// ``apple`` trusts Apple Root CA - G3 (StoreKit 2 JWS) and Apple Root CA (app receipts);
/// `--trusted-root FILE` adds more through ``loading(files:includeAppleRoots:)``, which is how
/// tests and the App Store simulator get their own CA trusted.
public struct TrustStore: Sendable, Hashable {
    /// The trusted roots, in the order they were added, without duplicates.
    public private(set) var roots: [Certificate]

    /// A store trusting exactly `roots`.
    public init(roots: [Certificate]) {
        self.roots = []
        add(roots)
    }

    /// Apple's two public roots: Apple Root CA - G3 and Apple Root CA.
    public static var apple: TrustStore {
        TrustStore(roots: [appleRootCAG3, appleIncRoot].compactMap { $0 })
    }

    /// Apple Root CA - G3, the root of StoreKit 2 JWS chains (nil only if the embedded bytes
    /// were damaged, which the tests rule out).
    public static let appleRootCAG3: Certificate? = embedded(AppleRootCertificates.appleRootCAG3Base64)

    /// Apple Root CA (2006), the root of PKCS#7 app receipt signatures.
    public static let appleIncRoot: Certificate? = embedded(AppleRootCertificates.appleIncRootBase64)

    /// Reads trusted roots from DER or PEM files (a PEM file may hold several certificates).
    ///
    /// - Parameters:
    ///   - files: paths as given on the command line.
    ///   - includeAppleRoots: start from ``apple`` (the default) rather than from nothing.
    /// - Returns: the store with every certificate of every file added.
    /// - Throws: ``TrustStoreError`` naming the first file that cannot be read or holds no
    ///   certificate.
    public static func loading(files: [String], includeAppleRoots: Bool = true) throws(TrustStoreError) -> TrustStore {
        var store = includeAppleRoots ? TrustStore.apple : TrustStore(roots: [])
        for path in files {
            store.add(try certificates(inFile: path))
        }
        return store
    }

    /// This store plus `roots`.
    public func adding(_ roots: [Certificate]) -> TrustStore {
        var copy = self
        copy.add(roots)
        return copy
    }

    /// This store plus the certificate in `der` (DER bytes, such as ``SigningAuthority/rootDER``).
    ///
    /// - Throws: the parser's error when the bytes are not a certificate.
    public func adding(der: [UInt8]) throws -> TrustStore {
        adding([try Certificate(derEncoded: der)])
    }

    /// The roots as a swift-certificates store, for `Verifier`.
    package var certificateStore: CertificateStore {
        CertificateStore(roots)
    }

    private mutating func add(_ newRoots: [Certificate]) {
        for root in newRoots where !roots.contains(root) {
            roots.append(root)
        }
    }

    private static func embedded(_ base64: String) -> Certificate? {
        guard let der = ReceiptBase64.decode(base64, alphabet: .standard, allowWhitespace: true) else { return nil }
        return try? Certificate(derEncoded: der)
    }

    /// Every certificate in one DER or PEM file.
    package static func certificates(inFile path: String) throws(TrustStoreError) -> [Certificate] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TrustStoreError(path: path, problem: .unreadable(describe(error)))
        }
        return try certificates(in: Array(data), path: path)
    }

    /// Every certificate in DER or PEM bytes; `path` only names the source in errors.
    package static func certificates(in bytes: [UInt8], path: String) throws(TrustStoreError) -> [Certificate] {
        let pemMarker = Array("-----BEGIN".utf8)
        let isPEM =
            bytes.count >= pemMarker.count
            && (0...(bytes.count - pemMarker.count)).contains { offset in
                bytes[offset..<(offset + pemMarker.count)].elementsEqual(pemMarker)
            }
        if isPEM {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw TrustStoreError(path: path, problem: .notACertificate("PEM text is not UTF-8"))
            }
            let documents: [PEMDocument]
            do {
                documents = try PEMDocument.parseMultiple(pemString: text)
            } catch {
                throw TrustStoreError(path: path, problem: .notACertificate("the PEM text cannot be parsed"))
            }
            var found: [Certificate] = []
            for document in documents where document.discriminator == "CERTIFICATE" {
                do {
                    found.append(try Certificate(pemDocument: document))
                } catch {
                    throw TrustStoreError(
                        path: path, problem: .notACertificate("a CERTIFICATE block is not valid X.509"))
                }
            }
            guard !found.isEmpty else {
                throw TrustStoreError(path: path, problem: .notACertificate("no CERTIFICATE block"))
            }
            return found
        }
        do {
            return [try Certificate(derEncoded: bytes)]
        } catch {
            throw TrustStoreError(path: path, problem: .notACertificate("not a DER X.509 certificate"))
        }
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
            return "no such file"
        }
        if let posix = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError), posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return nsError.localizedDescription
    }
}
