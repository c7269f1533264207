/// Why a currency code or an amount was refused. Each case reads as a sentence in a terminal.
public enum MoneyError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidCurrencyCode(String)
    case malformedAmount(String)
    case tooManyDecimals(amount: String, currency: String, allowed: Int)
    case outOfRange(String)

    public var description: String {
        switch self {
        case .invalidCurrencyCode(let code):
            "\(InputEcho.quoted(code)) is not a currency code: use letters only, 1 to \(Currency.maximumCodeLength) of them (e.g. EUR)"
        case .malformedAmount(let text):
            "\(InputEcho.quoted(text)) is not a decimal amount: write digits with an optional '.' and fraction, e.g. 12.50"
        case .tooManyDecimals(let amount, let currency, let allowed):
            "\(InputEcho.escaped(amount)) has more decimals than \(currency) allows (\(allowed))"
        case .outOfRange(let text):
            "\(InputEcho.escaped(text)) is too large to store"
        }
    }
}
