/// Where a proceeds figure comes from, strongest first (CONTRACT §5 `proceeds_source`).
public enum ProceedsSource: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Apple's Financial Report: the partner share per unit Apple owes for the sale.
    case financialReport = "financial-report"
    /// Apple's Summary Sales Report: the developer proceeds per unit of that day's sales.
    case salesReport = "sales-report"
    /// The catalog's per-storefront `proceeds`: what App Store Connect shows for that price.
    case catalog
    /// The price × the catalog's (or the default) proceeds rate: a flat-rate guess that ignores the taxes Apple
    /// takes out first.
    case estimate

    /// Stronger sources sort first; a line mixing sources is as good as its weakest.
    public static func < (a: ProceedsSource, b: ProceedsSource) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }

    /// How the workbook names the source.
    public var label: String {
        switch self {
        case .financialReport: return "Apple Financial Report"
        case .salesReport: return "Apple Sales Report"
        case .catalog: return "catalog proceeds"
        case .estimate: return "estimate (price × rate)"
        }
    }
}
