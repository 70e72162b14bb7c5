import ReconModel
import SwiftASN1
import X509

/// Apple's chain rules on top of RFC 5280: exactly leaf → intermediate → root, with the WWDR
/// marker on the intermediate and the StoreKit marker on the leaf.
package struct AppleChainPolicy: VerifierPolicy {
    /// Apple's marker on its WWDR intermediate CA.
    package static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Apple's marker on its StoreKit (and receipt) signing leaf.
    package static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

    package let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    package func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let certificates = Array(chain)
        guard certificates.count == 3 else {
            return .failsToMeetPolicy(
                reason: "chain has \(certificates.count) certificates; Apple's has 3 (leaf, intermediate, root)")
        }
        guard certificates[0].extensions[oid: Self.leafMarkerOID] != nil else {
            return .failsToMeetPolicy(
                reason: "the leaf lacks Apple's StoreKit signing extension 1.2.840.113635.100.6.11.1")
        }
        guard certificates[1].extensions[oid: Self.intermediateMarkerOID] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate lacks Apple's WWDR extension 1.2.840.113635.100.6.2.1")
        }
        return .meetsPolicy
    }
}
