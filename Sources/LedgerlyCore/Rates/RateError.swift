/// Why a rate was refused. Each case reads as a sentence in a terminal.
public enum RateError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case notPositive(String)
    case outOfRange(String)
    case tooPrecise(String)

    public var description: String {
        switch self {
        case .malformed(let text): "\(InputEcho.quoted(text)) is not a rate: write a plain positive decimal, e.g. 161.25"
        case .notPositive(let text): "a rate must be greater than zero, got \(InputEcho.escaped(text))"
        case .outOfRange(let text): "\(InputEcho.escaped(text)) is outside the accepted range of rates (\(ExchangeRate.rangeDescription))"
        case .tooPrecise(let text): "\(InputEcho.escaped(text)) has more than \(ExchangeRate.maximumDigits) significant digits"
        }
    }
}
