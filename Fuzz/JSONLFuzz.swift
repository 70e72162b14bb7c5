import Foundation

/// libFuzzer entry: the bytes as a `.jsonl` ledger, each line read as an import does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.write(UnsafeBufferPointer(start: data, count: size), suffix: "jsonl")
    guard var reader = try? LineReader(path: path) else { return 0 }
    try? reader.forEach { line in
        let (row, _) = RowFields.jsonLine(line.text)
        guard let row else { return }
        _ = UnknownColumns.warnings(header: row.names, kind: .transactions, file: path)
        _ = try? RowParser.transaction(row)
        _ = try? RowParser.receipt(row)
    }
    return 0
}
