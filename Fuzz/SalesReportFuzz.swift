/// libFuzzer entry: the bytes as an Apple Summary Sales Report file (gzip or plain text), read
/// through the gzip line reader and parsed row by row as an import does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSalesReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.write(UnsafeBufferPointer(start: data, count: size), suffix: "txt.gz")
    try? SalesReportParser.parse(path) { _ in }
    return 0
}
