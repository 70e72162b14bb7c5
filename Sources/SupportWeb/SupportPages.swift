import Foundation
import IAPRecon

/// The pages of the support web view, rendered on the server.
///
/// Every value from the store or the request goes through ``HTML/escape(_:)``: user and product ids come from the
/// backend's export and may hold markup.
enum SupportPages {
    /// The search form alone.
    static func search(_ query: SearchQuery) -> String {
        HTML.page(
            title: "iap-recon support",
            body: """
                <h1>Was this customer charged, and did they get it?</h1>
                \(form(query))
                <p class="note">Search one of: an app account id, an Apple transaction id, an original transaction \
                id, or the order id from the customer's Apple receipt e-mail (asks Apple when App Store Server \
                API credentials are configured). The store is read, never changed.</p>
                """)
    }

    /// The answer for one subject: the answer line, the counts, the open findings, links to
    /// related subjects, and the timeline in the viewer's time zone.
    static func lookup(_ report: LookupReport, query: SearchQuery, timeZone: TimeZone) -> String {
        let alert = report.delivered + report.refunded < report.charged || report.openFindings > 0
        var body = form(query)
        if !query.isKnownTimeZone {
            body +=
                "<p class=\"error\">Unknown time zone \u{201C}\(HTML.escape(query.timeZoneName))\u{201D}; times are in UTC.</p>"
        }
        body += """

            <section class="answer\(alert ? " alert" : "")">
            <p class="answer-line" id="answer">\(HTML.escape(report.answer))</p>
            <p class="counts"><span>charged by Apple <b>\(report.charged)</b></span>\
            <span>delivered <b>\(report.delivered)</b></span><span>refunded <b>\(report.refunded)</b></span>\
            <span>open findings <b>\(report.openFindings)</b></span></p>
            \(report.store.map { "<p class=\"store\" id=\"store\">\(HTML.escape($0))</p>" } ?? "")
            </section>

            """
        body += findingsTable(report.findings.filter { $0.resolvedAt == nil }, query: query)
        body += related(report, query: query)
        body += timeline(report.events, query: query, timeZone: timeZone)
        return HTML.page(title: report.subject + " — iap-recon support", body: body)
    }

    /// The form again, with a message saying why there is no answer.
    static func failure(_ query: SearchQuery, message: String, timeZone: TimeZone) -> String {
        HTML.page(
            title: "iap-recon support",
            body: form(query) + "\n<p class=\"error\" id=\"answer\">\(HTML.escape(message))</p>\n")
    }

    /// The login form of a token-guarded server.
    static func login(next: String, failed: Bool) -> String {
        HTML.page(
            title: "Sign in — iap-recon support",
            body: """
                <h1>Sign in</h1>
                \(failed ? "<p class=\"error\">That token is not right.</p>" : "")
                <form class="search" method="post" action="/login">
                <input type="hidden" name="next" value="\(HTML.escape(next))">
                <label>Access token<input type="password" name="token" autocomplete="current-password" required></label>
                <button type="submit">Sign in</button>
                </form>
                <p class="note">Ask whoever runs this server for the access token.</p>
                """)
    }

    // MARK: - Parts

    static func form(_ query: SearchQuery) -> String {
        func field(_ label: String, _ name: String, _ value: String, _ hint: String) -> String {
            "<label>\(label)<input type=\"search\" name=\"\(name)\" value=\"\(HTML.escape(value))\" "
                + "placeholder=\"\(hint)\"></label>"
        }
        return """
            <form class="search" method="get" action="/lookup">
            \(field("User", "user", query.user, "app account id"))
            \(field("Transaction", "transaction", query.transaction, "transaction id"))
            \(field("Original transaction", "original_transaction", query.originalTransaction, "original transaction id"))
            \(field("Order id", "order_id", query.orderID, "from the receipt e-mail"))
            \(field("App transaction", "app_transaction", query.appTransaction, "Apple appTransactionId"))
            <label>Time zone<input name="tz" list="zones" value="\(HTML.escape(query.timeZoneName))"></label>
            <datalist id="zones">\(zoneOptions)</datalist>
            <button type="submit">Look up</button>
            </form>
            """
    }

    static let zoneOptions: String = TimeZone.knownTimeZoneIdentifiers.sorted()
        .map { "<option value=\"\(HTML.escape($0))\">" }.joined()

    static func findingsTable(_ findings: [LookupReport.FindingLine], query: SearchQuery) -> String {
        guard !findings.isEmpty else { return "<h2>Open findings</h2>\n<p class=\"note\">None.</p>\n" }
        var rows = ""
        for finding in findings {
            let amount = finding.amount.map { "\($0) \(finding.currency ?? "")" } ?? ""
            rows += """
                <tr><td class="sev-\(HTML.escape(finding.severity))">\(HTML.escape(finding.severity))</td>\
                <td>\(HTML.escape(finding.code))</td><td class="amount">\(HTML.escape(amount))</td>\
                <td>\(link("transaction", finding.transactionID, query))</td><td>\(HTML.escape(finding.detail))</td></tr>

                """
        }
        return """
            <h2>Open findings</h2>
            <table id="findings"><thead><tr><th>Severity</th><th>Code</th><th>Amount</th><th>Transaction</th>\
            <th>What is wrong</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>

            """
    }

    static func related(_ report: LookupReport, query: SearchQuery) -> String {
        var users: [String] = []
        var transactions: [String] = []
        for event in report.events {
            if let user = event.userID, !user.isEmpty, !users.contains(user) { users.append(user) }
            // A finding that names no transaction (a rescinded consent) carries an empty id: no link to nothing.
            if let id = event.transactionID, !id.isEmpty, !transactions.contains(id) { transactions.append(id) }
        }
        guard !users.isEmpty || !transactions.isEmpty else { return "" }
        var text = "<h2>Related</h2>\n"
        if !users.isEmpty {
            text += "<p>Users: " + users.map { link("user", $0, query) }.joined(separator: ", ") + "</p>\n"
        }
        if !transactions.isEmpty {
            text +=
                "<p>Transactions: " + transactions.map { link("transaction", $0, query) }.joined(separator: ", ")
                + "</p>\n"
        }
        return text
    }

    static func timeline(_ events: [LookupReport.Event], query: SearchQuery, timeZone: TimeZone) -> String {
        let zoneName = query.isKnownTimeZone ? query.timeZoneName : "UTC"
        let text = "<h2>Timeline <span class=\"note\">(times in \(HTML.escape(zoneName)))</span></h2>\n"
        guard !events.isEmpty else { return text + "<p class=\"note\">Nothing in the store.</p>\n" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
        var rows = ""
        for event in events {
            let time =
                Timestamp.parse(event.time).map {
                    formatter.string(from: Date(timeIntervalSince1970: Double($0) / 1_000))
                } ?? event.time
            let transaction = event.transactionID.map { link("transaction", $0, query) } ?? ""
            rows += """
                <tr><td class="time">\(HTML.escape(time))</td><td>\(HTML.escape(event.kind))</td>\
                <td>\(HTML.escape(event.text))</td><td>\(transaction)</td></tr>

                """
        }
        return text + """
            <table id="timeline"><thead><tr><th>When</th><th>What</th><th>Detail</th><th>Transaction</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>

            """
    }

    /// A link to another subject, keeping the viewer's time zone.
    static func link(_ name: String, _ value: String, _ query: SearchQuery) -> String {
        "<a href=\"\(HTML.href("/lookup", [(name, value), ("tz", query.timeZoneName)]))\">\(HTML.escape(value))</a>"
    }
}
