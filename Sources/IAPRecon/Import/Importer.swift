import Foundation

/// What happened to one input file. `read == accepted + rejected` always holds.
public struct ImportFileSummary: Sendable, Hashable, Codable {
    public var kind: String
    public var file: String
    public var read: Int
    public var accepted: Int
    public var rejected: Int

    /// `transactions.csv: read 10, accepted 9, rejected 1`.
    public var line: String { "\(kind) \(file): read \(read), accepted \(accepted), rejected \(rejected)" }
}

/// The files one import was asked to load.
public struct ImportRequest: Sendable, Hashable {
    public var transactions: [String]
    public var receipts: [String]
    public var products: [String]

    public init(transactions: [String] = [], receipts: [String] = [], products: [String] = []) {
        self.transactions = transactions
        self.receipts = receipts
        self.products = products
    }

    public var isEmpty: Bool { transactions.isEmpty && receipts.isEmpty && products.isEmpty }
}

/// Loads input files into the store: streaming, idempotent (upsert by id), every bad row kept.
public struct Importer {
    /// Rows committed per transaction.
    var batchSize = 50_000
    /// Called every `progressInterval` rows with (file, rows read so far).
    var progress: ((String, Int) -> Void)?
    var progressInterval = 100_000

    public init(progress: ((String, Int) -> Void)? = nil) {
        self.progress = progress
    }

    /// Imports every file of `request` into `store`, products first so a later import can rely
    /// on the catalog, then receipts, then transactions.
    ///
    /// - Throws: ``ImportFileError`` when a file cannot be opened or read (nothing of that file
    ///   is half-committed beyond whole batches; a rerun is idempotent), ``StoreError``.
    public func run(_ request: ImportRequest, into store: ReconStore) throws -> [ImportFileSummary] {
        // Open every file first: a missing file fails before anything is written.
        for path in request.products + request.receipts + request.transactions {
            let probe = try ChunkedFile(path: path)
            probe.close()
        }
        var summaries: [ImportFileSummary] = []
        for path in request.products { summaries.append(try importFile(path, kind: .products, into: store)) }
        for path in request.receipts { summaries.append(try importFile(path, kind: .receipts, into: store)) }
        if !request.transactions.isEmpty {
            let bulk = try store.ledgerIsEmpty()
            if bulk { try store.dropTransactionIndexes() }
            defer { if bulk { try? store.createTransactionIndexes() } }
            for path in request.transactions {
                summaries.append(try importFile(path, kind: .transactions, into: store))
            }
            if bulk { try store.createTransactionIndexes() }
        }
        return summaries
    }

    /// Imports one file of one kind.
    public func importFile(_ path: String, kind: InputKind, into store: ReconStore) throws -> ImportFileSummary {
        let writer = try LedgerWriter(store: store)
        var summary = ImportFileSummary(kind: kind.rawValue, file: path, read: 0, accepted: 0, rejected: 0)
        var inBatch = 0
        try store.beginBatch()
        do {
            let handle: (Int, String, RowFields?, String?) throws -> Void = { line, raw, row, syntaxError in
                summary.read += 1
                let id = row?.string(Self.idField(kind))
                do {
                    if let syntaxError { throw RowRejection(syntaxError) }
                    guard let row else { throw RowRejection("malformed row") }
                    switch kind {
                    case .transactions: try writer.upsert(try RowParser.transaction(row), source: path, line: line)
                    case .receipts: try writer.upsert(try RowParser.receipt(row), source: path, line: line)
                    case .products: try writer.upsert(try RowParser.product(row), source: path, line: line)
                    }
                    summary.accepted += 1
                } catch let rejection as RowRejection {
                    try writer.reject(
                        RejectedRow(kind: kind, source: path, line: line, recordID: id, reason: rejection.reason, raw: raw))
                    summary.rejected += 1
                }
                inBatch += 1
                if inBatch >= batchSize {
                    try store.commitBatch()
                    try store.beginBatch()
                    inBatch = 0
                }
                if let progress, summary.read % progressInterval == 0 { progress(path, summary.read) }
            }
            if Self.isJSONL(path, kind: kind) {
                try readJSONL(path, handle)
            } else {
                try readCSV(path, kind: kind, handle)
            }
            try store.commitBatch()
        } catch {
            store.rollbackBatch()
            throw error
        }
        return summary
    }

    static func idField(_ kind: InputKind) -> String {
        switch kind {
        case .transactions: return "record_id"
        case .receipts: return "receipt_id"
        case .products: return "product_id"
        }
    }

    static func isJSONL(_ path: String, kind: InputKind) -> Bool {
        switch kind {
        case .receipts: return !path.lowercased().hasSuffix(".csv")
        case .products: return path.lowercased().hasSuffix(".jsonl")
        case .transactions:
            let lower = path.lowercased()
            return lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".json")
        }
    }

    private func readCSV(
        _ path: String, kind: InputKind, _ handle: (Int, String, RowFields?, String?) throws -> Void
    ) throws {
        var reader = try CSVReader(path: path)
        var columns: [String: Int]?
        var width = 0
        try reader.forEach { record in
            guard let header = columns else {
                var map: [String: Int] = [:]
                for (index, name) in record.fields.enumerated() {
                    let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                    if map[key] == nil { map[key] = index }
                }
                columns = map
                width = record.fields.count
                return
            }
            if record.fields.count == 1, record.fields[0].isEmpty, record.syntaxError == nil { return }  // blank line
            if let error = record.syntaxError {
                try handle(record.line, record.raw, nil, "malformed CSV: \(error)")
            } else if record.fields.count != width {
                try handle(
                    record.line, record.raw, RowFields(columns: header, values: record.fields),
                    "row has \(record.fields.count) fields, header has \(width)")
            } else {
                try handle(record.line, record.raw, RowFields(columns: header, values: record.fields), nil)
            }
        }
    }

    private func readJSONL(_ path: String, _ handle: (Int, String, RowFields?, String?) throws -> Void) throws {
        var reader = try LineReader(path: path)
        try reader.forEach { line in
            let (row, error) = Self.jsonRow(line.text)
            try handle(line.line, line.text, row, error)
        }
    }

    /// One JSONL line as row fields, or why it is not one.
    static func jsonRow(_ text: String) -> (RowFields?, String?) {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [])
        else { return (nil, "bad JSON") }
        guard let dictionary = object as? [String: Any] else { return (nil, "bad JSON: a line must be one JSON object") }
        var columns: [String: Int] = [:]
        var values: [String?] = []
        var problem: String?
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]
            let text: String?
            switch value {
            case let string as String: text = string
            case is NSNull, nil: text = nil
            case let number as NSNumber: text = number.stringValue
            default:
                text = nil
                if problem == nil { problem = "bad JSON: field '\(key)' must be a string or a number" }
            }
            columns[key.lowercased()] = values.count
            values.append(text)
        }
        let row = RowFields(columns: columns, values: values)
        return (row, problem)
    }
}
