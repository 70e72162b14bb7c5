/// The store's migrations as PostgreSQL runs them, each statement under its migration's name (part 6 of 6;
/// ``PostgresMigrations``).
extension PostgresMigrations {
    static let part6: [(migration: String, statements: [String])] = [
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE TABLE consents (
                    user_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    consented_at BIGINT NOT NULL,
                    withdrawn_at BIGINT,
                    source_file TEXT COLLATE "C" NOT NULL,
                    source_line BIGINT NOT NULL,
                    imported_at BIGINT NOT NULL
                )
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE TABLE consumption_answers (
                    notification_uuid TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                    transaction_id TEXT COLLATE "C" NOT NULL,
                    environment TEXT COLLATE "C",
                    body TEXT COLLATE "C" NOT NULL,
                    sent_at BIGINT NOT NULL,
                    answered_at BIGINT,
                    http_status BIGINT,
                    failure TEXT COLLATE "C"
                )
                """#
            ]
        ),
    ]
}
