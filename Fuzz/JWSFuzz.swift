import Foundation
import X509

/// libFuzzer entry: the bytes as a compact JWS, taken apart as the signed data verifier does
/// before any signature check: split at the dots, base64url, the header's `alg` and `x5c`
/// (each certificate's base64 and DER), then the payload's JSON as a transaction, a renewal
/// and a notification; and the StoreKit testing reader that looks at the payload only.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = ReceiptDecoder.localTestTransaction(text)
    guard case .success(let parts) = JWSParts.parse(text) else { return 0 }
    for der in parts.certificates { _ = try? Certificate(derEncoded: der) }
    let payload = Data(parts.payload)
    let decoder = JSONDecoder()
    if let transaction = try? decoder.decode(JWSTransactionDecodedPayload.self, from: payload) {
        _ = transaction.evidence
    }
    _ = try? decoder.decode(JWSRenewalInfoDecodedPayload.self, from: payload)
    _ = try? decoder.decode(ResponseBodyV2DecodedPayload.self, from: payload)
    return 0
}
