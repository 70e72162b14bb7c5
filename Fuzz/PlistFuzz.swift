/// libFuzzer entry: the bytes as an iOS 6 receipt's old-style plist text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? OldStylePlistParser().parse(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
