import Crypto
import Foundation
import IAPReconTestSupport
import Testing
import X509

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// `sslmode` against a real server that speaks TLS with a certificate for `localhost` from a CA of
/// the test's own: what libpq's modes promise (PostgreSQL's documentation, "SSL Support",
/// table "SSL Mode Descriptions").
@Suite(.serialized) struct PostgresTLSTests {
    let dir = TemporaryDirectory("pg-tls")

    /// A CA and a server certificate for `localhost` (its only name: not `127.0.0.1`).
    struct Certificates {
        let caPEM: String
        let serverPEM: String
        let serverKeyPEM: String

        init() throws {
            let now = Date()
            let caKey = P256.Signing.PrivateKey()
            let caName = try DistinguishedName { CommonName("iap-recon test CA") }
            let ca = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(caKey.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: caName, subject: caName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                },
                issuerPrivateKey: .init(caKey))
            let serverKey = P256.Signing.PrivateKey()
            let server = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(serverKey.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: caName,
                subject: try DistinguishedName { CommonName("localhost") },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames([.dnsName("localhost")])
                },
                issuerPrivateKey: .init(caKey))
            caPEM = try ca.serializeAsPEM().pemString
            serverPEM = try server.serializeAsPEM().pemString
            serverKeyPEM = serverKey.pemRepresentation
        }
    }

    /// Runs `body` against a TLS server, stopped afterwards whatever happens; `caFile` holds the CA.
    func withTLSServer(_ body: (ThrowawayPostgres, _ caFile: String) async throws -> Void) async throws {
        let certificates = try Certificates()
        let caFile = try dir.write("ca.pem", certificates.caPEM)
        let server = try ThrowawayPostgres(
            certificate: (chainPEM: certificates.serverPEM, keyPEM: certificates.serverKeyPEM))
        defer { server.destroy() }
        try await body(server, caFile)
    }

    /// Imports one catalog row over `url`: the rows arrive, or the one-line error.
    func importOneProduct(_ url: String) async throws -> Result<Int, DatabaseSourceError> {
        var source = try DatabaseSource(url: url, environment: [:])
        source.queries = [(kind: InputKind.products, sql: "SELECT 'coins' AS product_id, 'consumable' AS type")]
        let store = try ReconStore(path: dir.file(UUID().uuidString + ".sqlite"))
        do {
            let summaries = try await PostgresTests.importing(source, into: store)
            return .success(summaries.first?.accepted ?? 0)
        } catch let error as DatabaseSourceError {
            return .failure(error)
        }
    }

    @Test func requireEncryptsWithoutCheckingTheCertificate() async throws {
        try await withTLSServer { server, _ in
            let imported = try await importOneProduct(server.url(sslmode: "require"))
            #expect(imported == .success(1))
        }
    }

    @Test func verifyFullAcceptsTheServerItsRootAndNameVouchFor() async throws {
        try await withTLSServer { server, caFile in
            let url = server.url(sslmode: "verify-full", host: "localhost") + "&sslrootcert=" + caFile
            let imported = try await importOneProduct(url)
            #expect(imported == .success(1))
        }
    }

    @Test func verifyFullRefusesACertificateForAnotherName() async throws {
        try await withTLSServer { server, caFile in
            // The certificate names localhost, not the address connected to.
            let url = server.url(sslmode: "verify-full") + "&sslrootcert=" + caFile
            guard case .failure(let error) = try await importOneProduct(url) else {
                Issue.record("verify-full accepted a certificate for another host name")
                return
            }
            let text = try #require(error.errorDescription)
            #expect(text.hasPrefix("cannot read postgresql://127.0.0.1:\(server.port)/postgres: "))
            #expect(!text.contains("\n"))
            #expect(!text.contains(server.password))
            // verify-ca checks the chain alone: the same server is accepted.
            let verifyCA = server.url(sslmode: "verify-ca") + "&sslrootcert=" + caFile
            let imported = try await importOneProduct(verifyCA)
            #expect(imported == .success(1))
        }
    }

    @Test func verifyFullWithTheSystemsTrustStoreRefusesAnUnknownRoot() async throws {
        try await withTLSServer { server, _ in
            guard
                case .failure(let error) = try await importOneProduct(
                    server.url(sslmode: "verify-full", host: "localhost"))
            else {
                Issue.record("verify-full trusted a root the system does not know")
                return
            }
            #expect(
                error.errorDescription?.hasPrefix("cannot read postgresql://localhost:\(server.port)/postgres: ")
                    == true)
        }
    }

    @Test func plainConnectionsStillWorkWhereTLSIsOffered() async throws {
        try await withTLSServer { server, _ in
            let imported = try await importOneProduct(server.url(sslmode: "disable"))
            #expect(imported == .success(1))
        }
    }
}
