import Foundation

/// How charts read and write amounts: the store's decimal strings in, labels a person reads out.
public enum ChartFigures {
    /// The store's decimal text ("-1234.50") as an exact `Decimal`; nil for anything else.
    public static func decimal(_ text: String) -> Decimal? {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// An amount with thousands grouped by a thin space and exactly `places` decimals
    /// ("12 345.60"): the same digits the store sent, only grouped.
    public static func label(_ value: Decimal, places: Int = 2) -> String {
        let rounded = ChartScale.rounded(value, places: places)
        var text = "\(rounded)"
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var fraction = parts.count > 1 ? parts[1] : ""
        while fraction.count < places { fraction += "0" }
        var whole = parts[0]
        var grouped = ""
        while whole.count > 3 {
            grouped = "\u{2009}" + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        parts = places > 0 ? [grouped, fraction] : [grouped]
        return (negative ? "-" : "") + parts.joined(separator: ".")
    }

    /// A value as exact as it came: at least two decimals, more when the value has more (a
    /// three-decimal currency, a rate), so the figures tables and tooltips never round.
    public static func exactLabel(_ value: Decimal) -> String {
        label(value, places: max(2, -Int(value.exponent)))
    }
}
