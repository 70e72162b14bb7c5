import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Writes the parsed chunks of one input into the store, in order: upserts, rejections and
/// batched commits, counting what was read, accepted and rejected.
///
/// File rows and query rows arrive here alike (``Importer/judge(kind:source:line:raw:row:syntaxError:seed:)``
/// decided what each is).
package final class ChunkWriter {
    private let store: any ImportStore
    private let writer: any LedgerWriter
    private let source: String
    private let kind: InputKind
    private let bulk: Bool
    private let batchSize: Int
    private let progress: ((String, Int) -> Void)?
    private let progressInterval: Int
    private var inBatch = 0
    /// What was written so far.
    package private(set) var summary: ImportFileSummary

    /// A writer for `source`; `bulk` when the caller holds a bulk load of an empty ledger (one
    /// transaction, no indexes yet: rows are appended, nothing is compared).
    package init(source: String, kind: InputKind, store: any ImportStore, bulk: Bool, importer: Importer) throws {
        self.store = store
        self.source = source
        self.kind = kind
        self.bulk = bulk
        writer = try store.ledgerImport.writer(bulk: bulk)
        batchSize = importer.batchSize
        progress = importer.progress
        progressInterval = importer.progressInterval
        summary = ImportFileSummary(kind: kind.rawValue, file: source, read: 0, accepted: 0, rejected: 0)
    }

    /// Opens the first batch and forgets the source's earlier rejections.
    package func begin() throws {
        if !bulk { try store.ledgerImport.beginBatch() }
        try writer.forgetRejections(of: source, kind: kind)
    }

    /// Writes one chunk's rows, committing every `batchSize` rows.
    package func write(_ chunk: ParsedChunk) throws {
        try writer.prepare(firstLine: chunk.firstLine, lastLine: chunk.lastLine, source: source)
        try chunk.bytes.withUnsafeBufferPointer { bytes in
            for item in chunk.items {
                switch item {
                case .packed(let row):
                    guard let base = bytes.baseAddress else {
                        preconditionFailure("a packed row always has bytes in its chunk")
                    }
                    try writer.write(row, bytes: base, source: source)
                    summary.accepted += 1
                case .parsed(.warning(let text)):
                    summary.warnings = (summary.warnings ?? []) + [text]
                    continue
                case .parsed(.transaction(let t, let line, let hash)):
                    try writer.upsert(t, source: source, line: line, hash: hash)
                    summary.accepted += 1
                case .parsed(.receipt(let r, let line)):
                    try writer.upsert(r, source: source, line: line)
                    summary.accepted += 1
                case .parsed(.product(let p, let line)):
                    try writer.upsert(p, source: source, line: line)
                    summary.accepted += 1
                case .parsed(.entitlement(let e, let line)):
                    try writer.upsert(e, source: source, line: line)
                    summary.accepted += 1
                case .parsed(.consent(let c, let line)):
                    try store.appleWord.upsertConsent(c, file: source, line: line)
                    summary.accepted += 1
                case .parsed(.rejected(let rejection)):
                    try writer.reject(rejection)
                    summary.rejected += 1
                }
                summary.read += 1
                inBatch += 1
                if inBatch >= batchSize, !bulk {
                    try writer.settleMoves()
                    try store.ledgerImport.commitBatch()
                    try store.ledgerImport.beginBatch()
                    inBatch = 0
                }
                if let progress, summary.read % progressInterval == 0 { progress(source, summary.read) }
            }
        }
        // Before the next chunk reads what is stored of its lines: a record moved here is gone from its old line.
        try writer.settleMoves()
    }

    /// Commits the last batch.
    package func finish() throws {
        if !bulk { try store.ledgerImport.commitBatch() }
    }

    /// Rolls the open batch back (a bulk load is rolled back by its owner).
    package func abort() {
        if !bulk { store.ledgerImport.rollbackBatch() }
    }
}

@available(*, unavailable)
extension ChunkWriter: Sendable {}
