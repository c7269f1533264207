/// Why an amount could not be converted. Never a silent rate of 1.
public enum ConversionError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingRate(from: String, to: String)
    /// The converted amount reaches the ledger's limit (`Money.maximumMinorUnits` minor units of
    /// the target currency), so it could not be recorded.
    case resultTooLarge(amount: String, to: String)

    public var description: String {
        switch self {
        case .missingRate(let from, let to):
            "no rate from \(from) to \(to) is known (directly, inverted, or through a base currency): add one with `ledgerly rates set \(from) \(to) RATE`"
        case .resultTooLarge(let amount, let to):
            "\(amount) converted to \(to) is too large: amounts must be below \(Money.format(minorUnits: Money.maximumMinorUnits, exponent: CurrencyCatalog.exponent(for: to))) \(to)"
        }
    }
}
