import ReconImport

/// The keys of what one command's run takes: the store, the input files, the report's window, logging, and
/// `serve`'s and `lookup`'s own options.
///
/// Each is a long option of the same name, and may stand in a config file as any setting does: a nightly job's
/// file can name its store, its inputs and its log format, and the cron line stays short. The subject of a
/// `lookup` (`--user`, `--transaction`, …) is the one question asked, not a setting: it has no key.
extension ReconConfig {
    static var commandKeys: [Key] {
        [
            Key(
                "db",
                "The store: an SQLite file, or postgresql://USER@HOST:PORT/DB?sslmode=... (the password from "
                    + "PGPASSWORD or ~/.pgpass, kept out of URLs and config files); import and run create it when "
                    + "absent, other commands need it",
                .text(\.databasePath), default: "none", flag: .option("store")),
            Key(
                "transactions", "Purchase ledger, .csv or .jsonl (repeatable)", file(\.transactions), default: "none",
                flag: .option("file")),
            Key(
                "receipts", "Uploaded receipts, .jsonl (repeatable)", file(\.receipts), default: "none",
                flag: .option("file")),
            Key(
                "products", "Product catalog, .csv (repeatable)", file(\.products), default: "none",
                flag: .option("file")),
            Key(
                "sales-report", "Apple Summary Sales Report, .txt or .txt.gz (repeatable)", file(\.salesReports),
                default: "none", flag: .option("file")),
            Key(
                "notifications", "App Store Server Notifications V2 as the webhook stored them, .jsonl (repeatable)",
                file(\.notifications), default: "none", flag: .option("file")),
            Key(
                "financial-report",
                "Apple Financial Report (a fiscal month, one region or all), .txt or .txt.gz "
                    + "(repeatable)", file(\.financialReports), default: "none", flag: .option("file")),
            Key(
                "payments", "Apple payment summary of a fiscal month, .csv (repeatable)", file(\.payments),
                default: "none", flag: .option("file")),
            Key(
                "entitlements", "The backend's subscription entitlements, .csv or .jsonl (repeatable)",
                file(\.entitlements), default: "none", flag: .option("file")),
            Key(
                "consents", "Who agreed to share consumption information with Apple, .csv or .jsonl (repeatable)",
                file(\.consents), default: "none", flag: .option("file")),
            Key("strict", "Exit non-zero when any input row is rejected", .bool(\.strict), flag: .toggle),
            Key(
                "as-of", "Fix \"now\" (ISO 8601 with offset, or epoch ms) so a rerun reproduces the same reports",
                .time(\.asOf), flag: .option("time")),
            Key("from", "First day of the revenue report (yyyy-MM-dd)", .day(\.fromDay), flag: .option("date")),
            Key("to", "Last day of the revenue report (yyyy-MM-dd)", .day(\.toDay), flag: .option("date")),
            Key(
                "full",
                "Judge every transaction again instead of only those changed since the last report "
                    + "(same reports)", .bool(\.fullReport), flag: .toggle),
            Key(
                "log-level", "Logging: trace, debug, info, notice, warning, error or critical",
                .choice(\.logLevel, ["trace", "debug", "info", "notice", "warning", "error", "critical"]),
                flag: .option("level")),
            Key(
                "log-format", "Logs as text, or json (one JSON object per line, for log shippers)",
                .choice(\.logFormat, ["text", "json"]), flag: .option("format")),
            Key("host", "serve: the address to listen on", .text(\.serveHost), flag: .option("address")),
            Key(
                "port", "serve: the port (0 picks a free one; the URL is printed)", .number(\.servePort, 0...65_535),
                flag: .option("port")),
            Key("format", "lookup: text or json", .choice(\.lookupFormat, ["text", "json"]), flag: .option("format")),
            Key(
                "dry-run", "answer-consumption: print what would be sent; send and write nothing",
                .bool(\.consumptionDryRun), flag: .toggle),
        ]
    }

    /// An input file list, `--name FILE` (repeatable): the flags' list replaces a file's (later wins).
    private static func file(_ path: WritableKeyPath<ImportRequest, [String]>) -> Kind {
        let files: WritableKeyPath<ReconConfig, ImportRequest> = \.inputFiles
        return .list(files.appending(path: path), flagsAdd: false)
    }
}
