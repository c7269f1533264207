// `_NSDecimalRound`, the rounding behind Foundation's `NSDecimalRound` (D380).
@_spi(SwiftCorelibsFoundation) import FoundationEssentials
import Glibc

/// The little arithmetic the CLI does on the store's decimal strings, for display only: a buy's
/// cost (amount plus fee), a percentage as tenths for a bar, a price's place in a sparkline.
/// `Decimal` (base 10, 38 digits), never binary floating point, so nothing shown is off by a
/// rounding the store did not make; every figure the ledger keeps is computed by the store.
enum DecimalText {
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// A plain decimal ("-12.50"); nil for anything else (exponents, commas, words).
    static func value(_ text: String) -> Decimal? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), digits.filter({ $0 == "." }).count <= 1 else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// `a + b`, written with as many decimals as the longer of the two ("1000.00" + "1.00" = "1001.00").
    static func sum(_ a: String, _ b: String) -> String? {
        guard let x = value(a), let y = value(b) else { return nil }
        return text(x + y, decimals: max(decimals(a), decimals(b)))
    }

    /// A percentage as tenths of a percent, rounded ("12.34" → 123), for `Bar`.
    static func tenths(_ text: String) -> Int? {
        guard var scaled = value(text).map({ $0 * 10 }) else { return nil }
        var rounded = Decimal()
        _NSDecimalRound(&rounded, &scaled, 0, .plain)
        // A whole `Decimal` prints as plain digits.
        return Int(rounded.description)
    }

    static func decimals(_ text: String) -> Int {
        text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
    }

    /// `value` with exactly `decimals` places (it has at most that many here).
    static func text(_ value: Decimal, decimals: Int) -> String {
        var text = value.description
        guard decimals > 0 else { return text }
        let have = Self.decimals(text)
        if have == 0 { text += "." }
        return text + String(repeating: "0", count: max(0, decimals - have))
    }
}

extension DecimalText {
    /// `a − b`, written with as many decimals as the longer of the two ("262000" − "250000.00" = "12000.00").
    static func difference(_ a: String, _ b: String) -> String? {
        guard let x = value(a), let y = value(b) else { return nil }
        return text(x - y, decimals: max(decimals(a), decimals(b)))
    }
}
