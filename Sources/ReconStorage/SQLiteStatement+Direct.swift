import AppleData
import CSQLite
import ReconModel

/// Binding one parameter at a time, without building a `[SQLValue]` per row: the import's hot
/// path binds ledger rows straight from the bytes of the file it read.
extension SQLiteStatement {
    /// Makes the statement ready to be bound and run again (bindings are kept until overwritten).
    package func reset() {
        sqlite3_reset(handle)
    }

    package func bindInt64(_ value: Int64, at index: Int32) throws(StoreError) {
        try check(sqlite3_bind_int64(handle, try slot(index), value), index)
    }

    package func bindNull(at index: Int32) throws(StoreError) {
        try check(sqlite3_bind_null(handle, try slot(index)), index)
    }

    /// Binds `count` bytes of UTF-8 at `pointer` as text, without copying them: they must stay
    /// valid and unchanged until the statement has been run and reset (SQLITE_STATIC,
    /// https://www.sqlite.org/c3ref/bind_blob.html).
    package func bindText(_ pointer: UnsafePointer<UInt8>, count: Int, at index: Int32) throws(StoreError) {
        let slot = try slot(index)
        let rc = pointer.withMemoryRebound(to: CChar.self, capacity: count) {
            sqlite3_bind_text(handle, slot, $0, Int32(count), nil)
        }
        try check(rc, index)
    }

    /// Binds a string as text (SQLite copies it: SQLITE_TRANSIENT).
    ///
    /// From the string's own UTF-8 (`withUTF8`), not a C string made of it for the call: every kept sale, part and
    /// event binds several.
    package func bindText(_ text: String, at index: Int32) throws(StoreError) {
        var text = text
        let slot = try slot(index)
        let rc = text.withUTF8 { bytes in
            // An empty string is text, not NULL: SQLite binds NULL for a null pointer.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, slot, "", 0, iaprecon_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, slot, $0, Int32(bytes.count), iaprecon_sqlite_transient())
            }
        }
        try check(rc, index)
    }

    /// Binds each of `texts` at its parameter from the string's own UTF-8, without a copy, then runs the statement
    /// bound parameter by parameter (``runBound()``) while those bytes are still valid.
    ///
    /// The rows a report keeps per judged transaction bind several texts each: bound as copies
    /// (``bindText(_:at:)``), every one is an allocation and a copy inside the engine.
    package func runBinding(texts: [(text: String, at: Int32)]) throws(StoreError) {
        try bindThenRun(texts, from: 0)
    }

    /// Binds `texts[index...]`, each inside the access to its bytes, and runs once all are bound.
    private func bindThenRun(_ texts: [(text: String, at: Int32)], from index: Int) throws(StoreError) {
        guard index < texts.count else {
            try runBound()
            return
        }
        var failure: StoreError?
        let parameter = texts[index].at
        let contiguous: Void? = texts[index].text.utf8.withContiguousStorageIfAvailable { bytes in
            do throws(StoreError) {
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    try bindText(base, count: bytes.count, at: parameter)
                } else {
                    try bindText("", at: parameter)  // empty text, not NULL
                }
                try bindThenRun(texts, from: index + 1)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if contiguous == nil {
            // A string not stored as UTF-8 (bridged): bound as a copy.
            try bindText(texts[index].text, at: parameter)
            try bindThenRun(texts, from: index + 1)
        }
    }

    /// The ``RowHash`` of the text of `column` under `seed`, hashed where SQLite keeps it (no string is made of it; on
    /// PostgreSQL, of its string's UTF-8).
    package func textHash(_ column: Int32, seed: UInt64) -> UInt64 {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer = sqlite3_column_text(handle, column) else {
            return RowHash.hash(UnsafeRawBufferPointer(start: nil, count: 0), seed: seed)
        }
        return RowHash.hash(UnsafeRawBufferPointer(start: pointer, count: count), seed: seed)
    }

    /// Runs a statement bound parameter by parameter to completion, then resets it.
    package func runBound() throws(StoreError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    private func check(_ rc: Int32, _ index: Int32) throws(StoreError) {
        if rc != SQLITE_OK {
            throw .sqlite(code: rc, message: database.lastErrorMessage, context: "binding parameter \(index)")
        }
    }
}
