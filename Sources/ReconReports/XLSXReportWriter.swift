import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// Builds `reconciliation.xlsx` as an ``XLSXDocument`` and writes it with ``XLSXWriter``.
///
/// Sheets: Summary (totals per currency, findings by code and severity, new/resolved, a daily
/// revenue chart), Revenue, Deferred Revenue, Discrepancies, Pending, Rejected, Run.
public enum XLSXReportWriter {
    /// Writes the workbook for `report` to `path` (atomically).
    ///
    /// A stored value the format cannot hold is written as text. The findings and the pending rows stream from
    /// `store` into their sheets, never all in memory.
    ///
    /// - Parameter eachOpenFinding: Called with each of this run's findings as its row is written, in report order:
    ///   another file of the findings (`discrepancies.csv`) is written from the same read.
    /// - Returns: one warning per value written as text, for `run.json`.
    @discardableResult
    package static func write(
        _ report: ReconciliationReport, store: any ReportStore, to path: String,
        eachOpenFinding: @escaping (FindingHistory) throws -> Void = { _ in }
    ) throws -> [String] {
        let fileName = String(path.split(separator: "/").last ?? Substring(path))
        let (document, warnings) = document(for: report).storable()
        let tz = zone(report)
        let streams = [
            XLSXRowStream(sheet: discrepanciesSheet) { row in
                try store.findings.forEachRunFinding(at: report.asOf) {
                    try eachOpenFinding($0)
                    try row(discrepancy($0, status: $0.isNew ? "new" : "open", tz))
                }
                if let runID = report.findingsRecordedBy {
                    try store.findings.forEachFindingResolved(runID: runID, at: report.asOf) {
                        try row(discrepancy($0, status: "resolved", tz))
                    }
                }
            },
            XLSXRowStream(sheet: pendingSheet) { row in
                var shown = 0
                try store.ledger.forEachPendingTransaction(limit: ReconciliationReport.pendingLimit) {
                    try row(pending($0, asOf: report.asOf, tz))
                    shown += 1
                }
                if report.pendingTotal > shown {
                    try row(XLSXRow([.text("… \(report.pendingTotal - shown) more pending rows not shown")]))
                }
            },
        ]
        let streamed = try XLSXWriter.write(document, streams: streams, to: path, createdAt: report.asOf)
        // In sheet order, as the sheets are written.
        let order = Dictionary(uniqueKeysWithValues: document.sheets.enumerated().map { ($1.name, $0) })
        return (warnings + streamed).enumerated()
            .sorted { (order[$0.element.sheet] ?? 0, $0.offset) < (order[$1.element.sheet] ?? 0, $1.offset) }
            .map { $0.element.message(fileName: fileName) }
    }

    /// The workbook as values, without the rows streamed from the store (the findings and the pending rows).
    public static func document(for report: ReconciliationReport) -> XLSXDocument {
        XLSXDocument(
            sheets: [summary(report), revenue(report), deferredRevenue(report.deferred, timeZone: report.timeZone)]
                + (report.sales.map { [appleSales($0)] } ?? [])
                + (report.monthClose.map { [monthClose($0)] } ?? [])
                + (report.subscriptions.map { [subscriptions($0, zone: zone(report))] } ?? [])
                + [discrepancies(report), pending(report), rejected(report), run(report)])
    }

    package static func dateTime(_ millis: Int64, zone: TimeZone) -> XLSXDateTime {
        let c = Timestamp.components(millis, in: zone)
        return XLSXDateTime(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second)
    }

    package static func date(_ day: Int) -> XLSXDateTime {
        let (y, m, d) = Timestamp.civil(fromDays: day)
        return XLSXDateTime(year: y, month: m, day: d)
    }

    private static func zone(_ report: ReconciliationReport) -> TimeZone {
        TimeZone(identifier: report.timeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    package static func summary(_ report: ReconciliationReport) -> XLSXSheet {
        var rows: [XLSXRow] = []
        let tz = zone(report)
        rows.append(XLSXRow([.text("iap-recon reconciliation")], style: .title))
        rows.append(XLSXRow([.text("As of"), .dateTime(dateTime(report.asOf, zone: tz)), .text(report.timeZone)]))
        rows.append(XLSXRow([.text("Store"), .text(report.run.store)]))
        rows.append(XLSXRow([]))
        rows.append(XLSXRow([.text("Revenue (Production only)")], style: .title))
        rows.append(
            XLSXRow(
                ["Currency", "Units", "Gross", "Refunds", "Net", "Estimated proceeds"].map { .text($0) }, style: .header
            ))
        for t in report.totalsByCurrency {
            func m(_ v: Int64) -> XLSXCell { .amount(Money(milliunits: v, currency: t.currency)) }
            rows.append(
                XLSXRow([.text(t.currency), .integer(t.units), m(t.gross), m(t.refunds), m(t.net), m(t.proceeds)]))
        }
        if report.totalsByCurrency.isEmpty { rows.append(XLSXRow([.text("No Production revenue in range")])) }
        rows += proceedsBySource(report)
        for (currency, milli) in report.recoveredFromSandbox.sorted(by: { $0.key < $1.key }) {
            rows.append(
                XLSXRow([
                    .text("Recovered: Production purchases booked as Sandbox"),
                    .money(Money(milliunits: milli, currency: currency)),
                ]))
        }
        for (currency, milli) in report.excludedAsSandbox.sorted(by: { $0.key < $1.key }) {
            rows.append(
                XLSXRow([
                    .text("Excluded: booked as Production, evidence says not"),
                    .money(Money(milliunits: milli, currency: currency)),
                ]))
        }
        if report.unpricedTransactions > 0 {
            rows.append(
                XLSXRow([.text("Counted transactions without any price"), .integer(Int64(report.unpricedTransactions))])
            )
        }
        if report.duplicateRowsIgnored > 0 {
            rows.append(
                XLSXRow([.text("Duplicate ledger rows counted once"), .integer(Int64(report.duplicateRowsIgnored))]))
        }
        rows += appleSalesSummary(report.sales)
        rows.append(XLSXRow([]))
        rows.append(XLSXRow([.text("Findings")], style: .title))
        rows.append(XLSXRow([.text("New since previous run"), .integer(Int64(report.findings.new))]))
        rows.append(XLSXRow([.text("Resolved since previous run"), .integer(Int64(report.findings.resolved))]))
        rows.append(XLSXRow(["Severity", "Findings"].map { .text($0) }, style: .header))
        for severity in Severity.allCases {
            rows.append(XLSXRow([.text(severity.rawValue), .integer(Int64(report.findings.count(severity)))]))
        }
        rows.append(XLSXRow([]))
        rows.append(
            XLSXRow(
                ["Code", "Severity", "Findings", "New", "Amount at stake", "Currency"].map { .text($0) }, style: .header
            ))
        for code in FindingCode.allCases.sorted(by: { ($0.severity, $0.rawValue) < ($1.severity, $1.rawValue) }) {
            let totals = report.findings.byCode[code] ?? FindingTotals.Code()
            let perCurrency = totals.amounts
            let newCount = Int64(totals.new)
            if perCurrency.isEmpty {
                rows.append(
                    XLSXRow([
                        .text(code.rawValue), .text(code.severity.rawValue), .integer(Int64(totals.count)),
                        .integer(newCount), .empty, .empty,
                    ]))
            }
            for (index, (currency, milli)) in perCurrency.sorted(by: { $0.key < $1.key }).enumerated() {
                rows.append(
                    XLSXRow([
                        .text(code.rawValue), .text(code.severity.rawValue),
                        index == 0 ? .integer(Int64(totals.count)) : .empty,
                        index == 0 ? .integer(newCount) : .empty, .amount(Money(milliunits: milli, currency: currency)),
                        .text(currency),
                    ]))
            }
        }
        // Revenue never changes silently: what changed since the previous report.
        rows.append(XLSXRow([]))
        rows.append(XLSXRow([.text("Revenue changes since the previous report")], style: .title))
        if report.revenueChanges.isEmpty {
            rows.append(XLSXRow([.text("No day already reported has changed")]))
        } else {
            rows.append(
                XLSXRow(
                    ["Date", "Product", "Previous net", "Current net", "Difference", "Transactions", "Reason"]
                        .map { .text($0) }, style: .header))
            for change in report.revenueChanges {
                func m(_ v: Int64) -> XLSXCell { .money(Money(milliunits: v, currency: change.currency)) }
                let day = Timestamp.parse(change.date + "T00:00:00Z").map { Int($0 / 86_400_000) }
                rows.append(
                    XLSXRow([
                        day.map { .date(date($0)) } ?? .text(change.date), .text(change.productID),
                        m(change.previousNet), m(change.currentNet), m(change.difference),
                        .text(change.transactionIDs.joined(separator: " ")), .text(change.reason),
                    ]))
            }
        }
        // Daily net revenue per currency, the chart's data.
        rows.append(XLSXRow([]))
        rows.append(XLSXRow([.text("Daily net revenue")], style: .title))
        let currencies = Array(Set(report.revenue.map(\.currency))).sorted()
        let headerIndex = rows.count
        rows.append(XLSXRow([.text("Date")] + currencies.map { .text($0) }, style: .header))
        var byDay: [Int: [String: Int64]] = [:]
        for r in report.revenue { byDay[r.day, default: [:]][r.currency, default: 0] += r.net }
        let days = byDay.keys.sorted()
        for day in days {
            let values = byDay[day] ?? [:]
            rows.append(
                XLSXRow(
                    [.date(date(day))] + currencies.map { c in .amount(Money(milliunits: values[c] ?? 0, currency: c)) }
                ))
        }
        // One chart per currency, each on its own scale (a JPY line would flatten EUR and USD),
        // over a date scale; stacked to the right of the tables.
        var charts: [XLSXChart] = []
        if let firstDay = days.first, let lastDay = days.last {
            let first = headerIndex + 1
            let last = headerIndex + days.count
            for (index, currency) in currencies.enumerated() {
                charts.append(
                    XLSXChart(
                        kind: .dateLine, title: "Daily net revenue, \(currency) (Production)",
                        categories: .init(name: "Date", sheet: "Summary", firstRow: first, lastRow: last, column: 0),
                        series: [
                            .init(name: currency, sheet: "Summary", firstRow: first, lastRow: last, column: index + 1)
                        ],
                        anchorRow: 4 + index * summaryChartRows, anchorColumn: 7,
                        valueFormat: XLSXWriter.amountFormat(currency), dateRange: (date(firstDay), date(lastDay))))
            }
        }
        return XLSXSheet(name: "Summary", rows: rows, columnWidths: [50], headerRow: nil, charts: charts)
    }

    /// Rows a Summary chart takes (its default height, 15 rows, plus a gap).
    package static let summaryChartRows = 16

    package static func revenue(_ report: ReconciliationReport) -> XLSXSheet {
        var rows = [XLSXRow(CSVReports.revenueHeader.map { .text($0) }, style: .header)]
        for r in report.revenue {
            func m(_ v: Int64) -> XLSXCell { .amount(Money(milliunits: v, currency: r.currency)) }
            rows.append(
                XLSXRow([
                    .date(date(r.day)), .text(r.productID), .text(r.currency), .integer(r.units), m(r.gross),
                    m(r.refunds), m(r.net), m(r.estimatedProceeds),
                    .money(Money(milliunits: r.proceeds, currency: r.proceedsCurrency)), .text(r.proceedsCurrency),
                    .text(r.proceedsSource.rawValue),
                ]))
        }
        return XLSXSheet(name: "Revenue", rows: rows, columnWidths: [12], headerRow: 0)
    }

    /// The sheets whose rows stream from the store.
    package static let discrepanciesSheet = "Discrepancies"
    package static let pendingSheet = "Pending"

    /// The Discrepancies sheet's header; its rows are streamed (``discrepancy(_:status:_:)``).
    package static func discrepancies(_ report: ReconciliationReport) -> XLSXSheet {
        XLSXSheet(
            name: discrepanciesSheet,
            rows: [XLSXRow((CSVReports.discrepanciesHeader + ["status"]).map { .text($0) }, style: .header)],
            columnWidths: [nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, 90], headerRow: 0)
    }

    /// One finding of the Discrepancies sheet: this run's (`new`, `open`) in report order, then the resolved ones.
    package static func discrepancy(_ h: FindingHistory, status: String, _ tz: TimeZone) -> XLSXRow {
        let f = h.finding
        return XLSXRow([
            .text(f.code.rawValue), .text(f.severity.rawValue), .text(f.transactionID),
            .text(f.originalTransactionID ?? ""),
            .text(f.userIDs.joined(separator: ";")), .text(f.productID ?? ""),
            .text(f.environment?.rawValue ?? ""),
            f.amount.map { .amount($0) } ?? .empty, .text(f.amount?.currency ?? ""),
            .dateTime(dateTime(h.firstSeenAt, zone: tz)), .text(f.detail), .text(status),
        ])
    }

    /// The Pending sheet's header; its rows are streamed (``pending(_:asOf:_:)``), the oldest
    /// ``ReconciliationReport/pendingLimit``.
    package static func pending(_ report: ReconciliationReport) -> XLSXSheet {
        let header = [
            "record_id", "user_id", "product_id", "transaction_id", "purchase_date", "age_hours", "environment",
            "price", "receipt_id",
        ]
        return XLSXSheet(name: pendingSheet, rows: [XLSXRow(header.map { .text($0) }, style: .header)], headerRow: 0)
    }

    /// One pending ledger row.
    package static func pending(_ t: LedgerTransaction, asOf: Int64, _ tz: TimeZone) -> XLSXRow {
        XLSXRow([
            .text(t.recordID), .text(t.userID), .text(t.productID), .text(t.transactionID),
            .dateTime(dateTime(t.purchaseDate, zone: tz)), .integer(max(0, (asOf - t.purchaseDate) / 3_600_000)),
            .text(t.environment.rawValue), t.lineTotal.map { .money($0) } ?? .empty, .text(t.receiptID ?? ""),
        ])
    }

    package static func rejected(_ report: ReconciliationReport) -> XLSXSheet {
        var rows = [XLSXRow(["source", "line", "record_id", "reason"].map { .text($0) }, style: .header)]
        for r in report.rejected {
            rows.append(XLSXRow([.text(r.source), .integer(Int64(r.line)), .text(r.recordID ?? ""), .text(r.reason)]))
        }
        return XLSXSheet(name: "Rejected", rows: rows, columnWidths: [30, 8, 20, 80], headerRow: 0)
    }

    package static func run(_ report: ReconciliationReport) -> XLSXSheet {
        let r = report.run
        var rows = [XLSXRow(["key", "value"].map { .text($0) }, style: .header)]
        func add(_ key: String, _ value: XLSXCell) { rows.append(XLSXRow([.text(key), value])) }
        add("run_id", .integer(r.runID))
        add("command", .text(r.command))
        add("version", .text(r.version))
        add("started_at", .text(r.startedAt))
        add("as_of", .text(r.asOf))
        add("time_zone", .text(r.timeZone))
        add("store", .text(r.store))
        for input in r.inputs {
            add(
                "input \(input.kind) \(input.file)",
                .text("read \(input.read), accepted \(input.accepted), rejected \(input.rejected)"))
        }
        add("transactions in store", .integer(Int64(r.counts.transactionsInStore)))
        add("receipts in store", .integer(Int64(r.counts.receiptsInStore)))
        add("verified this run", .integer(Int64(r.counts.verified)))
        add("still pending", .integer(Int64(r.counts.stillPending)))
        add("rejected rows kept", .integer(Int64(r.counts.rejectedInStore)))
        for stage in r.stages { add("stage \(stage.name) (ms)", .integer(stage.durationMillis)) }
        for (code, count) in r.findingsByCode.sorted(by: { $0.key < $1.key }) {
            add("findings \(code)", .integer(Int64(count)))
        }
        return XLSXSheet(name: "Run", rows: rows, columnWidths: [40, 60], headerRow: 0)
    }
}
