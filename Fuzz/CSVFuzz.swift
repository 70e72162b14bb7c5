import Foundation

/// libFuzzer entry: the bytes as a ledger `.csv`, read and validated row by row as an import
/// does (CSV reader, header layout, unknown columns, every field's parser).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInput.write(UnsafeBufferPointer(start: data, count: size), suffix: "csv")
    guard var reader = try? CSVReader(path: path) else { return 0 }
    var layout: FieldLayout?
    try? reader.forEach { record in
        guard let header = layout else {
            _ = UnknownColumns.warnings(header: record.fields, kind: .transactions, file: path)
            layout = FieldLayout(header: record.fields)
            return
        }
        let row = RowFields(layout: header, values: record.fields)
        _ = try? RowParser.transaction(row)
        _ = try? RowParser.receipt(row)
        _ = try? RowParser.product(row)
    }
    return 0
}
