/// Findings across runs: first seen, last seen, resolved when no longer found.
extension ReconStore {
    /// A finding with its history (the read model lives in Model/).
    public typealias FindingHistory = IAPRecon.FindingHistory

    /// Records this run's findings: new ones are inserted, known ones touched, and previously
    /// open findings absent now are marked resolved.
    ///
    /// - Returns: this run's findings with history, and the ones resolved by this run.
    public func recordFindings(_ findings: [Finding], runID: Int64, at time: Int64) throws
        -> (current: [FindingHistory], resolved: [FindingHistory])
    {
        try write {
            // An open finding keeps its first sighting; a resolved one found again starts anew.
            let lookup = try db.prepare(
                "SELECT first_seen_at FROM findings WHERE fingerprint = ? AND resolved_at IS NULL")
            let upsert = try db.prepare(
                """
                INSERT INTO findings (fingerprint, code, severity, transaction_id, original_transaction_id, user_ids,
                    product_id, environment, amount_milli, currency, detail, record_ids, receipt_id, first_seen_run,
                    first_seen_at, last_seen_run, last_seen_at, resolved_run, resolved_at, subject)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?14, ?15, NULL, NULL, ?16)
                ON CONFLICT (fingerprint) DO UPDATE SET code = ?2, severity = ?3, transaction_id = ?4,
                    original_transaction_id = ?5, user_ids = ?6, product_id = ?7, environment = ?8, amount_milli = ?9,
                    currency = ?10, detail = ?11, record_ids = ?12, receipt_id = ?13, last_seen_run = ?14,
                    last_seen_at = ?15, resolved_run = NULL, resolved_at = NULL, subject = ?16,
                    first_seen_run = CASE WHEN resolved_at IS NULL THEN first_seen_run ELSE ?14 END,
                    first_seen_at = CASE WHEN resolved_at IS NULL THEN first_seen_at ELSE ?15 END
                """)
            let addUser = try db.prepare("INSERT OR IGNORE INTO finding_users (fingerprint, user_id) VALUES (?, ?)")
            var current: [FindingHistory] = []
            current.reserveCapacity(findings.count)
            try db.execute("CREATE TEMP TABLE IF NOT EXISTS seen_findings (fingerprint TEXT PRIMARY KEY) WITHOUT ROWID")
            try db.execute("DELETE FROM seen_findings")
            let seen = try db.prepare("INSERT OR IGNORE INTO seen_findings VALUES (?)")
            for finding in findings {
                let key = finding.fingerprint
                try lookup.bind([.text(key)])
                let known = try lookup.step() ? lookup.int64(0) : nil
                let firstSeen = known ?? time
                let isNew = known == nil
                try upsert.run([
                    .text(key), .text(finding.code.rawValue), .text(finding.severity.rawValue),
                    .text(finding.transactionID),
                    .optionalText(finding.originalTransactionID), .text(finding.userIDs.joined(separator: " ")),
                    .optionalText(finding.productID), .optionalText(finding.environment?.rawValue),
                    finding.amount.map { .integer($0.milliunits) } ?? .null, .optionalText(finding.amount?.currency),
                    .text(finding.detail), .text(finding.recordIDs.joined(separator: " ")),
                    .optionalText(finding.receiptID), .integer(runID), .integer(time), .optionalText(finding.subject),
                ])
                for user in finding.userIDs { try addUser.run([.text(key), .text(user)]) }
                try seen.run([.text(key)])
                current.append(
                    FindingHistory(
                        finding: finding, firstSeenAt: firstSeen, lastSeenAt: time, resolvedAt: nil, isNew: isNew))
            }
            let resolvedNow = try db.prepare(
                """
                SELECT \(FindingsRow.columns) FROM findings f
                WHERE f.resolved_at IS NULL AND f.fingerprint NOT IN (SELECT fingerprint FROM seen_findings)
                ORDER BY f.fingerprint
                """)
            var resolved: [FindingHistory] = []
            while try resolvedNow.step() {
                guard var history = FindingsRow.read(resolvedNow) else { continue }
                history.resolvedAt = time
                resolved.append(history)
            }
            try db.prepare(
                """
                UPDATE findings SET resolved_run = ?1, resolved_at = ?2
                WHERE resolved_at IS NULL AND fingerprint NOT IN (SELECT fingerprint FROM seen_findings)
                """
            ).run([.integer(runID), .integer(time)])
            return (current, resolved.sorted { Finding.reportOrder($0.finding, $1.finding) })
        }
    }
}
