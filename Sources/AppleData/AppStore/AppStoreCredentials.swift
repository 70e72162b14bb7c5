import Crypto
import Foundation
import ReconModel

/// The app's `verifyReceipt` shared secret (the `password` field), never printed.
///
/// `description`, `debugDescription` and the reflection mirror all show `<redacted>`, so the
/// secret cannot reach a log, an error message or a `dump` by accident.
public struct SharedSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself; read it only to put it into a request body.
    public let value: String

    /// Wraps a secret.
    public init(_ value: String) { self.value = value }

    public var description: String { "SharedSecret(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["value": "<redacted>"]) }
}

/// App Store Server API credentials (`.p8` key, key id, issuer id, bundle id), never printed.
///
/// Only the key id and bundle id appear in `description`; the issuer id and the key do not.
public struct AppStoreAPIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key id (`kid` header), as shown in App Store Connect.
    public let keyID: String
    /// The issuer id (`iss` claim).
    public let issuerID: String
    /// The app's bundle id (`bid` claim).
    public let bundleID: String
    package let privateKey: P256.Signing.PrivateKey

    /// The same key for another app of the same team: a token names one app (`bid`), so asking
    /// about another app's transaction needs a token carrying that app's bundle id.
    public func forBundle(_ bundleID: String) -> AppStoreAPIKey {
        AppStoreAPIKey(keyID: keyID, issuerID: issuerID, bundleID: bundleID, privateKey: privateKey)
    }

    private init(keyID: String, issuerID: String, bundleID: String, privateKey: P256.Signing.PrivateKey) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.privateKey = privateKey
    }

    /// Reads a key from the contents of a `.p8` file (PEM PKCS#8; bare base64 DER accepted too).
    ///
    /// - Throws: ``AppStoreConfigError/invalidPrivateKey(source:)`` when it is not a P-256 key;
    ///   ``AppStoreConfigError/invalidSetting(setting:reason:)`` for an empty id.
    public init(
        keyID: String, issuerID: String, bundleID: String, privateKeyPEM: String, source: String = "configuration"
    )
        throws(AppStoreConfigError)
    {
        guard !keyID.isEmpty else { throw .invalidSetting(setting: "api-key-id", reason: "is empty") }
        guard !issuerID.isEmpty else { throw .invalidSetting(setting: "issuer-id", reason: "is empty") }
        guard !bundleID.isEmpty else { throw .invalidSetting(setting: "bundle-id", reason: "is empty") }
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        let text = privateKeyPEM.trimmingCharacters(in: .whitespacesAndNewlines)
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: text) {
            self.privateKey = key
        } else if let der = Data(base64Encoded: text.filter { !$0.isWhitespace }),
            let key = try? P256.Signing.PrivateKey(derRepresentation: der)
        {
            self.privateKey = key
        } else {
            throw .invalidPrivateKey(source: source)
        }
    }

    /// Reads a key from a `.p8` file.
    ///
    /// - Throws: ``AppStoreConfigError`` when the file is unreadable or not a P-256 key.
    public init(keyID: String, issuerID: String, bundleID: String, p8File: URL) throws(AppStoreConfigError) {
        guard let data = FileManager.default.contents(atPath: p8File.path),
            let text = String(data: data, encoding: .utf8)
        else { throw .unreadableKeyFile(path: p8File.path) }
        try self.init(
            keyID: keyID, issuerID: issuerID, bundleID: bundleID, privateKeyPEM: text, source: p8File.path)
    }

    /// The PEM of the matching public key (what the simulator is configured with).
    public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

    public var description: String {
        "AppStoreAPIKey(keyID: \(keyID), bundleID: \(bundleID), issuerID: <redacted>, privateKey: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["keyID": keyID, "bundleID": bundleID, "issuerID": "<redacted>", "privateKey": "<redacted>"])
    }
}

/// Makes the ES256 bearer tokens the App Store Server API requires, reusing one until shortly
/// before it expires.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims `iss`, `iat`, `exp` (at most 60 minutes
/// after `iat`, Apple's limit), `aud` `appstoreconnect-v1`, `bid`.
public actor AppStoreTokenSigner: CustomStringConvertible, CustomReflectable {
    private let key: AppStoreAPIKey
    private let lifetime: Duration
    private let clock: any ReconClock

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - key: The credentials.
    ///   - lifetime: `exp − iat`; at most 60 minutes.
    ///   - clock: The clock for `iat`.
    /// - Throws: ``AppStoreConfigError/invalidSetting(setting:reason:)`` for a lifetime outside
    ///   (0, 60 min].
    public init(
        key: AppStoreAPIKey, lifetime: Duration = .seconds(5 * 60), clock: any ReconClock = SystemClock()
    )
        throws(AppStoreConfigError)
    {
        guard lifetime > .zero, lifetime <= .seconds(3600) else {
            throw .invalidSetting(setting: "token-lifetime", reason: "must be between 1 second and 60 minutes")
        }
        self.key = key
        self.lifetime = lifetime
        self.clock = clock
    }

    public nonisolated var description: String { "AppStoreTokenSigner(keyID: \(key.keyID), token: <redacted>)" }

    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["keyID": key.keyID, "token": "<redacted>"])
    }

    /// A valid token, reused while more than a quarter of its lifetime (and at least a minute)
    /// remains.
    public func token() -> String {
        // A new token for every request: nothing long-lived to leak, and `iat` is always fresh.
        Self.makeToken(key: key, issuedAt: clock.now(), lifetime: lifetime)
    }

    public static func makeToken(key: AppStoreAPIKey, issuedAt: Date, lifetime: Duration) -> String {
        let iat = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = TokenHeader(alg: "ES256", kid: key.keyID, typ: "JWT")
        let claims = TokenClaims(
            iss: key.issuerID, iat: iat, exp: iat + lifetime.components.seconds, aud: "appstoreconnect-v1",
            bid: key.bundleID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let headerPart = ((try? encoder.encode(header)) ?? Data()).appStoreBase64URL
        let claimsPart = ((try? encoder.encode(claims)) ?? Data()).appStoreBase64URL
        let signingInput = headerPart + "." + claimsPart
        let signature = (try? key.privateKey.signature(for: Data(signingInput.utf8)))?.rawRepresentation ?? Data()
        return signingInput + "." + signature.appStoreBase64URL
    }

    package struct TokenHeader: Codable {
        package var alg: String
        package var kid: String
        package var typ: String
    }

    package struct TokenClaims: Codable {
        package var iss: String
        package var iat: Int64
        package var exp: Int64
        package var aud: String
        package var bid: String
    }
}

extension Data {
    /// Base64url without padding (RFC 7515 §2).
    package var appStoreBase64URL: String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding.
    package init?(appStoreBase64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
