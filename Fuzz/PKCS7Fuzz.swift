/// The decoder the entry reuses: built (with Apple's roots, read once) before the first input,
/// so that one-time load is not taken for a leak.
nonisolated(unsafe) private var appReceipts: AppReceiptDecoder?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzPKCS7Initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    appReceipts = AppReceiptDecoder()
    _ = appReceipts?.trust.certificateStore
    return 0
}

/// libFuzzer entry: the bytes as an app receipt's DER (PKCS#7 SignedData), walked as a decode
/// does: the receipt payload's ASN.1 attribute set, then the signature's structure, its signer
/// certificate and the RSA check over the content (everything before the chain check).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPKCS7(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let receipt = try? AppReceiptDecoder.parse(bytes) {
        _ = receipt.inAppPurchases.map(\.evidenceEntry)
    }
    if let signed = try? AppReceiptSignature.SignedParts(bytes), let signer = signed.signerCertificate() {
        _ = signed.signatureProblem(signer: signer)
    }
    // The same bytes as the uploaded text (base64 with whitespace, or not base64 at all).
    _ = appReceipts?.decodeReceipt(String(decoding: bytes, as: UTF8.self))
    return 0
}
