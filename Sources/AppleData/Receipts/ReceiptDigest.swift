import Crypto
import Foundation
import ReconModel

/// Content fingerprints of receipt payloads (a payload is never logged; its digest may be).
public enum ReceiptDigest {
    /// Lower-case hex SHA-256 of the payload's UTF-8 bytes.
    public static func sha256Hex(_ payload: String) -> String {
        SHA256.hash(data: Data(payload.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
