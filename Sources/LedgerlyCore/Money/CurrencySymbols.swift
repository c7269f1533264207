/// The currency marks people and banks write beside amounts (`€12.50`, `12,50 zł`), shared by the
/// CLI's amount input and the bank statement readers so that both know the same marks.
public enum CurrencySymbols {
    /// Symbols one currency uses alone.
    public static let unique: [String: String] = [
        "€": "EUR", "£": "GBP", "₹": "INR", "₩": "KRW", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₫": "VND",
        "₱": "PHP", "₦": "NGN", "₴": "UAH", "₸": "KZT", "₾": "GEL", "zł": "PLN", "Kč": "CZK", "Ft": "HUF",
    ]

    /// Symbols several currencies use, longest first (`US$` before `$`), with those currencies.
    /// Where the currency is already known (a statement row's), such a symbol is accepted when it
    /// is one of them; where it would have to name the currency, it is refused (D321).
    public static let shared: [(symbol: String, currencies: Set<String>)] = [
        ("US$", ["USD"]),
        ("$", ["USD", "CAD", "AUD", "NZD", "MXN", "SGD", "HKD", "ARS", "CLP", "COP", "UYU", "TWD"]),
        ("¥", ["JPY", "CNY"]),
        ("kr", ["SEK", "NOK", "DKK", "ISK"]),
        ("元", ["CNY", "TWD", "HKD"]),
    ]

    /// Whether `mark` (a symbol above, or an ISO code) may stand for `code`.
    public static func mark(_ mark: String, canMean code: String) -> Bool {
        if mark == code { return true }
        if let only = unique[mark] { return only == code }
        return shared.first { $0.symbol == mark }?.currencies.contains(code) ?? false
    }
}
