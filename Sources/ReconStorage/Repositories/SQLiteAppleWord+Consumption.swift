import AppleData
import ReconModel

/// Consumption requests: the customers' consents (CONTRACT §1.10) and the answers sent to Apple (§7).
extension SQLiteAppleWord {
    /// Upserts one consent (one per user; a re-import updates it), in the caller's transaction.
    package func upsertConsent(_ consent: Consent, file: String, line: Int) throws(StoreError) {
        try db.prepare(
            """
            INSERT INTO consents (user_id, consented_at, withdrawn_at, source_file, source_line, imported_at)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (user_id) DO UPDATE SET consented_at = $2, withdrawn_at = $3, source_file = $4,
                source_line = $5, imported_at = $6
            """
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
            let row = SQLiteRow(stmt, table: "consents")
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
            let row = SQLiteRow(stmt, table: "consumption_answers")
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
            """
            INSERT INTO consumption_answers (notification_uuid, transaction_id, body, sent_at, answered_at,
                http_status, failure)
            VALUES ($1, $2, $3, $4, NULL, NULL, NULL)
            ON CONFLICT (notification_uuid) DO UPDATE SET transaction_id = $2, body = $3, sent_at = $4,
                answered_at = NULL, http_status = NULL, failure = NULL
            """
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
