import AppleData
import ReconModel

/// Consumption requests: the customers' consents (CONTRACT §1.10) and the answers sent to Apple (§7).
extension SQLAppleWord {
    /// Upserts one consent (one per user; a re-import updates it), in the caller's transaction.
    package func upsertConsent(_ consent: Consent, file: String, line: Int) throws(StoreError) {
        try db.prepare(
            RowInsert(
                into: "consents",
                ["user_id", "consented_at", "withdrawn_at", "source_file", "source_line", "imported_at"],
                onConflict: .update(
                    target: ["user_id"],
                    set:
                        "consented_at = excluded.consented_at, withdrawn_at = excluded.withdrawn_at, source_file = excluded.source_file, source_line = excluded.source_line, imported_at = excluded.imported_at"
                ))
        ).run([
            .text(consent.userID), .integer(consent.consentedAt), .optionalInteger(consent.withdrawnAt), .text(file),
            .integer(Int64(line)), .integer(clock.nowMillis()),
        ])
    }

    /// Every consent, by user.
    package func consents() throws(StoreError) -> [String: Consent] {
        let stmt = try db.prepare(
            "SELECT user_id, consented_at, withdrawn_at FROM consents ORDER BY user_id NULLS FIRST")
        var result: [String: Consent] = [:]
        while try stmt.step() {
            let row = SQLRow(stmt, table: "consents")
            let user = row.text("user_id")
            result[user] = Consent(
                userID: user, consentedAt: row.int64("consented_at"), withdrawnAt: row.optionalInt64("withdrawn_at"))
        }
        return result
    }

    /// Every answer sent, by notification uuid.
    package func consumptionAnswers() throws(StoreError) -> [String: ConsumptionAnswer] {
        let stmt = try db.prepare(
            """
            SELECT notification_uuid, transaction_id, body, sent_at, answered_at, http_status, failure
            FROM consumption_answers ORDER BY notification_uuid
            """)
        var result: [String: ConsumptionAnswer] = [:]
        while try stmt.step() {
            let row = SQLRow(stmt, table: "consumption_answers")
            let uuid = row.text("notification_uuid")
            result[uuid] = ConsumptionAnswer(
                notificationUUID: uuid, transactionID: row.text("transaction_id"), body: row.text("body"),
                sentAt: row.int64("sent_at"), answeredAt: row.optionalInt64("answered_at"),
                httpStatus: row.optionalInt("http_status"), failure: row.optionalText("failure"))
        }
        return result
    }

    /// Notes that an answer is about to be sent; false when this request already has one that did not fail.
    ///
    /// The row is written before the request leaves: a run killed while it is in flight leaves it, and the request
    /// is not sent again (Apple may have accepted it).
    package func startConsumptionAnswer(_ answer: ConsumptionAnswer) throws(StoreError) -> Bool {
        let known =
            try db.scalar(
                "SELECT COUNT(*) FROM consumption_answers WHERE notification_uuid = $1 AND failure IS NULL",
                [.text(answer.notificationUUID)]) ?? 0
        guard known == 0 else { return false }
        try db.prepare(
            RowInsert(
                into: "consumption_answers", ["notification_uuid", "transaction_id", "body", "sent_at"],
                constants: [("answered_at", "NULL"), ("http_status", "NULL"), ("failure", "NULL")],
                onConflict: .update(
                    target: ["notification_uuid"],
                    set:
                        "transaction_id = excluded.transaction_id, body = excluded.body, sent_at = excluded.sent_at, answered_at = NULL, http_status = NULL, failure = NULL"
                ))
        ).run([
            .text(answer.notificationUUID), .text(answer.transactionID), .text(answer.body), .integer(answer.sentAt),
        ])
        return true
    }

    /// Records Apple's answer.
    package func finishConsumptionAnswer(
        notificationUUID: String, httpStatus: Int?, answeredAt: Int64?, failure: String?
    ) throws(StoreError) {
        try db.prepare(
            "UPDATE consumption_answers SET http_status = $1, answered_at = $2, failure = $3 WHERE notification_uuid = $4"
        ).run([
            .optionalInteger(httpStatus.map(Int64.init)), .optionalInteger(answeredAt), .optionalText(failure),
            .text(notificationUUID),
        ])
    }
}
