import ReconFindings
import ReconModel

/// One line of `revenue_schedule.csv` written byte by byte into the file's buffer: the same bytes as its cells
/// (``CSVReports/scheduleRow(_:)`` through ``CSVTable``), without a string per cell.
///
/// The schedule has a line per counted sale (ten million for ten million rows): times go in by
/// ``Timestamp/writeISO(_:into:)``, amounts by ``Money/writeFormatted(milliunits:decimals:into:)``, and a text that
/// needs neither quotes nor the formula guard (an id, a product, a currency) as its bytes; anything else goes through
/// ``CSVTable/appendField(_:to:)`` as a cell would.
struct RevenueScheduleLine {
    /// The last currency seen and its decimals: a schedule has a handful of currencies.
    private var currency = ""
    private var decimals = 2

    /// Appends the line of `sale` with its `totals` at the as-of, CRLF included.
    mutating func append(_ sale: RecognitionSale, totals: RecognitionSchedule.Totals, to out: inout [UInt8]) {
        if sale.amount.currency != currency {
            currency = sale.amount.currency
            decimals = Currency.lookup(currency)?.decimals ?? 2
        }
        Self.appendText(sale.transactionID, to: &out)
        out.append(0x2C)
        Self.appendText(sale.originalTransactionID, to: &out)
        out.append(0x2C)
        Self.appendText(sale.userID, to: &out)
        out.append(0x2C)
        Self.appendText(sale.productID, to: &out)
        out.append(0x2C)
        Self.appendText(currency, to: &out)
        out.append(0x2C)
        appendMoney(sale.amount.milliunits, to: &out)
        out.append(0x2C)
        Self.appendTime(sale.start, to: &out)
        out.append(0x2C)
        if let end = sale.end, end > sale.start { Self.appendTime(end, to: &out) }
        out.append(0x2C)
        appendMoney(totals.netRecognized, to: &out)
        out.append(0x2C)
        appendMoney(totals.refunded, to: &out)
        out.append(0x2C)
        appendMoney(totals.deferred, to: &out)
        out.append(0x2C)
        Self.appendText(sale.periodSource.rawValue, to: &out)
        out.append(0x0D)
        out.append(0x0A)
    }

    /// A text cell: its bytes when they are printable ASCII with no comma or quote, starting with none of the
    /// formula characters and with no blank at either end (what ``CSVTable`` writes unchanged); else as a cell.
    static func appendText(_ text: String, to out: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last, first > 0x20, last > 0x20 else { return false }
            // `=`, `+`, `-`, `@`: the formula guard would prefix a quote.
            guard first != 0x3D, first != 0x2B, first != 0x2D, first != 0x40 else { return false }
            for byte in bytes where byte < 0x20 || byte > 0x7E || byte == 0x2C || byte == 0x22 { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { CSVTable.appendField(CSVTable.neutralized(text), to: &out) }
    }

    /// An amount with the currency's decimals: a number cell.
    private func appendMoney(_ milliunits: Int64, to out: inout [UInt8]) {
        let decimals = decimals
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Money.formatMaxLength) { buffer in
            guard let count = Money.writeFormatted(milliunits: milliunits, decimals: decimals, into: buffer) else {
                return false
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            return true
        }
        if !written { CSVTable.appendField(Money.format(milliunits: milliunits, decimals: decimals), to: &out) }
    }

    /// An instant as ``Timestamp/iso(_:)`` writes it: a text cell.
    private static func appendTime(_ millis: Int64, to out: inout [UInt8]) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Timestamp.isoMaxLength) { buffer in
            guard let count = Timestamp.writeISO(millis, into: buffer) else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            return true
        }
        if !written { appendText(Timestamp.iso(millis), to: &out) }
    }
}
