import AppleData
import Foundation
import ReconModel
import ReconStorage

/// The files one import was asked to load.
public struct ImportRequest: Sendable, Hashable {
    public var transactions: [String]
    public var receipts: [String]
    public var products: [String]
    /// Apple Summary Sales Reports (`.txt` or `.txt.gz`).
    public var salesReports: [String]
    /// Notification files: verified and imported by ``NotificationImporter`` (async), not here.
    public var notifications: [String]
    /// Apple Financial Reports (`.txt` or `.txt.gz`).
    public var financialReports: [String]
    /// Apple payment summaries (`.csv`).
    public var payments: [String]
    /// The backend's subscription entitlements (`.csv` or `.jsonl`).
    public var entitlements: [String]
    /// Who agreed to share consumption information with Apple (`.csv` or `.jsonl`).
    public var consents: [String]

    public init(
        transactions: [String] = [], receipts: [String] = [], products: [String] = [], salesReports: [String] = [],
        notifications: [String] = [], financialReports: [String] = [], payments: [String] = [],
        entitlements: [String] = [], consents: [String] = []
    ) {
        self.entitlements = entitlements
        self.consents = consents
        self.transactions = transactions
        self.receipts = receipts
        self.products = products
        self.salesReports = salesReports
        self.notifications = notifications
        self.financialReports = financialReports
        self.payments = payments
    }

    public var isEmpty: Bool {
        transactions.isEmpty && receipts.isEmpty && products.isEmpty && salesReports.isEmpty && notifications.isEmpty
            && financialReports.isEmpty && payments.isEmpty && entitlements.isEmpty && consents.isEmpty
    }
}

/// Loads input files into the store: streaming, idempotent (upsert by id), every bad row kept.
public struct Importer {
    /// Rows committed per transaction.
    package var batchSize = 50_000
    /// Called every `progressInterval` rows with (file, rows read so far).
    package var progress: ((String, Int) -> Void)?
    package var progressInterval = 100_000
    /// Logs what each part of an import cost (``PhaseTimer``), when given.
    package var timer: PhaseTimer?

    public init(progress: ((String, Int) -> Void)? = nil) {
        self.progress = progress
    }

    /// Imports every file of `request` into `store`, products first so a later import can rely
    /// on the catalog, then receipts, then transactions.
    ///
    /// - Throws: ``ImportFileError`` when a file cannot be opened or read (nothing of that file
    ///   is half-committed beyond whole batches; a rerun is idempotent), ``StoreError``.
    package func run(_ request: ImportRequest, into store: any ImportStore) throws -> [ImportFileSummary] {
        // Open every file first: a missing file fails before anything is written.
        for path in request.products + request.receipts + request.transactions + request.entitlements
            + request.consents
        {
            let probe = try ChunkedFile(path: path)
            probe.close()
        }
        for path in request.salesReports + request.financialReports { _ = try GzipLineReader(path: path) }
        for path in request.payments { try ChunkedFile(path: path).close() }
        var summaries: [ImportFileSummary] = []
        var timer = self.timer
        try store.ledgerImport.beginImport()
        defer { store.ledgerImport.endImport() }
        for path in request.products { summaries.append(try importFile(path, kind: .products, into: store)) }
        for path in request.receipts { summaries.append(try importFile(path, kind: .receipts, into: store)) }
        timer?.lap("catalog and receipts")
        if try !request.transactions.isEmpty && store.ledgerImport.ledgerIsEmpty() {
            // A first load into an empty ledger is one transaction that appends the rows and then
            // builds the indexes by sorting: a crash leaves the empty ledger, and a rerun loads again.
            try store.ledgerImport.beginBulkLoad()
            defer { store.ledgerImport.endBulkLoad() }
            do {
                for path in request.transactions {
                    summaries.append(try importFile(path, kind: .transactions, into: store, bulk: true))
                }
                timer?.lap("ledger rows", ["bulk": "true"])
                try store.ledgerImport.finishBulkLoad()
                timer?.lap("ledger indexes")
            } catch {
                store.ledgerImport.abortBulkLoad()
                throw error
            }
        } else {
            for path in request.transactions {
                summaries.append(try importFile(path, kind: .transactions, into: store))
            }
            timer?.lap("ledger rows")
        }
        for path in request.entitlements {
            summaries.append(try importFile(path, kind: .entitlements, into: store))
        }
        for path in request.consents { summaries.append(try importFile(path, kind: .consents, into: store)) }
        for path in request.salesReports {
            summaries.append(try SalesReportImporter().importFile(path, into: store))
        }
        for path in request.financialReports {
            summaries.append(try FinancialReportImporter().importFinancialReport(path, into: store))
        }
        for path in request.payments {
            summaries.append(try FinancialReportImporter().importPayments(path, into: store))
        }
        timer?.lap("entitlements and Apple's reports")
        return summaries
    }

    /// Imports one file of one kind.
    ///
    /// Parsing runs on its own thread, a bounded queue ahead of the SQLite writer, so the two
    /// overlap on two cores; memory stays at a few chunks. Rows stored unchanged (the same record
    /// id with the same text, under this file's name or another's, at any line) are skipped, not
    /// rewritten (``UnchangedLedgerRows``).
    package func importFile(_ path: String, kind: InputKind, into store: any ImportStore) throws -> ImportFileSummary {
        try importFile(path, kind: kind, into: store, bulk: false)
    }

    /// Imports one file; `bulk` when the caller holds a bulk load of an empty ledger (one
    /// transaction, no indexes yet: rows are appended, nothing is compared).
    package func importFile(_ path: String, kind: InputKind, into store: any ImportStore, bulk: Bool) throws
        -> ImportFileSummary
    {
        // Fail on an unopenable file before starting the parser.
        try ChunkedFile(path: path).close()
        let writer = try ChunkWriter(source: path, kind: kind, store: store, bulk: bulk, importer: self)
        let queue = BoundedQueue<ParsedBatch>(capacity: 8)
        let parser = Thread {
            let sink = ChunkSink(size: Self.parseBatchSize) { chunk in
                guard queue.push(.chunk(chunk)) else { throw CancellationError() }
            }
            do {
                try Self.parse(path, kind: kind, into: sink)
                try sink.flush()
                _ = queue.push(.done)
            } catch let error as ImportFileError {
                _ = queue.push(.failed(error))
            } catch {
                _ = queue.push(.done)
            }
        }
        parser.stackSize = 1 << 22
        parser.start()
        defer { queue.cancel() }
        try writer.begin()
        do {
            loop: while true {
                switch queue.pop() {
                case .chunk(let chunk): try writer.write(chunk)
                case .failed(let error): throw error
                case .done, nil: break loop
                }
            }
            try writer.finish()
        } catch {
            writer.abort()
            throw error
        }
        return writer.summary
    }

    package static let parseBatchSize = 2_000

    /// Reads and validates every row of a file, handing each outcome to `sink` in file order.
    package static func parse(_ path: String, kind: InputKind, into sink: ChunkSink) throws {
        // The seed of the rows' content hashes (a CSV file's header is part of it).
        let seed = HashSeed()
        let handle: (Int, String, RowFields?, String?) throws -> Void = { line, raw, row, syntaxError in
            try sink.append(
                judge(
                    kind: kind, source: path, line: line, raw: raw, row: row, syntaxError: syntaxError, seed: seed.value
                ))
        }
        let warn: ([String]) throws -> Void = { header in
            for line in UnknownColumns.warnings(header: header, kind: kind, file: path) {
                try sink.append(.warning(line))
            }
        }
        if Self.isJSONL(path, kind: kind) {
            try readJSONL(path, warn, handle)
        } else {
            try readCSV(path, kind: kind, sink: sink, seed: seed, warn, handle)
        }
    }

    /// What one row of an input is: the value to upsert, or the rejection to keep.
    ///
    /// The one place that decides, for file rows and query rows alike; a rejection keeps its
    /// source, line, id and reason.
    package static func judge(
        kind: InputKind, source: String, line: Int, raw: String, row: RowFields?, syntaxError: String?, seed: UInt64
    ) -> ParsedRow {
        do throws(RowRejection) {
            if let syntaxError { throw RowRejection(syntaxError) }
            guard let row else { throw RowRejection("malformed row") }
            switch kind {
            case .transactions:
                let transaction = try RowParser.transaction(row)
                return .transaction(transaction, line: line, hash: RowHash.hash(raw, seed: seed))
            case .receipts: return .receipt(try RowParser.receipt(row), line: line)
            case .products: return .product(try RowParser.product(row), line: line)
            case .entitlements: return .entitlement(try RowParser.entitlement(row), line: line)
            case .consents: return .consent(try RowParser.consent(row), line: line)
            case .notifications: throw RowRejection("notifications are imported with their signatures checked")
            case .salesReports: throw RowRejection("a sales report is read by SalesReportImporter")
            }
        } catch {
            return .rejected(
                RejectedRow(
                    kind: kind, source: source, line: line, recordID: row?.string(Self.idField(kind)),
                    reason: error.reason, raw: raw))
        }
    }

    package static func idField(_ kind: InputKind) -> Field {
        switch kind {
        case .transactions: return .recordID
        case .receipts: return .receiptID
        case .products: return .productID
        case .notifications: return .recordID
        case .salesReports: return .productID
        case .entitlements: return .originalTransactionID
        case .consents: return .userID
        }
    }

    package static func isJSONL(_ path: String, kind: InputKind) -> Bool {
        switch kind {
        case .receipts, .notifications: return !path.lowercased().hasSuffix(".csv")
        case .products, .entitlements, .consents: return path.lowercased().hasSuffix(".jsonl")
        case .salesReports: return false
        case .transactions:
            let lower = path.lowercased()
            return lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".json")
        }
    }

    private static func readCSV(
        _ path: String, kind: InputKind, sink: ChunkSink, seed: HashSeed, _ warn: ([String]) throws -> Void,
        _ handle: (Int, String, RowFields?, String?) throws -> Void
    ) throws {
        var reader = try CSVReader(path: path)
        var layout: FieldLayout?
        var width = 0
        // Ledger rows in their common, canonical form skip the general path (same result).
        var fast: LedgerFastPath?
        try reader.forEach(
            plain: { record, line in
                guard let row = fast?.parse(record, line: line, into: &sink.chunk.bytes) else {
                    return false
                }
                try sink.append(row)
                return true
            }
        ) { record in
            guard let header = layout else {
                try warn(record.fields)
                let header = FieldLayout(header: record.fields)
                layout = header
                width = record.fields.count
                seed.value = RowHash.seed(header: record.raw.utf8)
                if kind == .transactions { fast = LedgerFastPath(layout: header, width: width, seed: seed.value) }
                return
            }
            if record.fields.count == 1, record.fields[0].isEmpty, record.syntaxError == nil { return }  // blank line
            if let error = record.syntaxError {
                try handle(record.line, record.raw, nil, "malformed CSV: \(error)")
            } else if record.fields.count != width {
                try handle(
                    record.line, record.raw, RowFields(layout: header, values: record.fields),
                    "row has \(record.fields.count) fields, header has \(width)")
            } else {
                try handle(record.line, record.raw, RowFields(layout: header, values: record.fields), nil)
            }
        }
    }

    private static func readJSONL(
        _ path: String, _ warn: ([String]) throws -> Void, _ handle: (Int, String, RowFields?, String?) throws -> Void
    ) throws {
        var reader = try LineReader(path: path)
        var keysSeen: Set<String> = []
        try reader.forEach { line in
            let (row, error) = Self.jsonRow(line.text)
            // Each key is judged once per file, the first time a line carries it.
            let fresh = (row?.names ?? []).filter { keysSeen.insert($0).inserted }
            if !fresh.isEmpty { try warn(fresh) }
            try handle(line.line, line.text, row, error)
        }
    }

    /// One JSONL line as row fields, or why it is not one.
    package static func jsonRow(_ text: String) -> (RowFields?, String?) {
        RowFields.jsonLine(text)
    }
}

/// What the parser thread hands the writer.
package enum ParsedBatch: Sendable {
    case chunk(ParsedChunk)
    case failed(ImportFileError)
    case done
}

/// Collects the parser's rows into chunks and hands each full one on (to the writer's queue, or
/// straight to the writer).
package final class ChunkSink {
    package var chunk = ParsedChunk()
    private let deliver: (ParsedChunk) throws -> Void
    private let size: Int

    package init(size: Int, deliver: @escaping (ParsedChunk) throws -> Void) {
        self.deliver = deliver
        self.size = size
        chunk.items.reserveCapacity(size)
    }

    package func append(_ row: PackedTransaction) throws {
        chunk.firstLine = min(chunk.firstLine, row.line)
        chunk.lastLine = max(chunk.lastLine, row.line)
        chunk.items.append(.packed(row))
        if chunk.items.count >= size { try flush() }
    }

    package func append(_ row: ParsedRow) throws {
        if case .transaction(_, let line, _) = row {
            chunk.firstLine = min(chunk.firstLine, line)
            chunk.lastLine = max(chunk.lastLine, line)
        }
        chunk.items.append(.parsed(row))
        if chunk.items.count >= size { try flush() }
    }

    /// Hands the chunk over (if it has anything) and starts the next.
    package func flush() throws {
        guard !chunk.items.isEmpty else { return }
        let capacity = chunk.bytes.count
        try deliver(chunk)
        chunk = ParsedChunk()
        chunk.items.reserveCapacity(size)
        chunk.bytes.reserveCapacity(capacity)
    }
}

@available(*, unavailable)
extension ChunkSink: Sendable {}

/// The seed of one file's row hashes, known once its header is read.
package final class HashSeed {
    package var value = RowHash.parseVersion
}

/// A blocking first-in first-out queue of bounded size between two threads.
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var cancelled = false

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then appends.
    ///
    /// False when the queue was cancelled.
    package func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for an item.
    ///
    /// Nil when the queue was cancelled and is empty.
    package func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !cancelled { condition.wait() }
        if head == items.count { return nil }
        let item = items[head]
        head += 1
        if head > 64 {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// Wakes both sides for good (the consumer stopped early or finished).
    package func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
