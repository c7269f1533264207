import LedgerlyCore

/// One line of a dropped price file, checked on its own; the feed maps its symbol to an asset.
public struct PriceFileLine: Sendable, Hashable, CustomStringConvertible {
    /// 1-based, as an editor numbers it, for every message about the line.
    public let line: Int
    public let symbol: String
    public let price: ExchangeRate
    /// Upper-cased; nil when the line leaves it empty (the asset's quote currency).
    public let currency: String?
    /// The protocol's timestamp form ("2026-11-20T00:00:00.000Z" for a date alone); nil when the
    /// line leaves it empty (the file's modification time).
    public let asOf: String?

    public init(line: Int, symbol: String, price: ExchangeRate, currency: String?, asOf: String?) {
        self.line = line
        self.symbol = symbol
        self.price = price
        self.currency = currency
        self.asOf = asOf
    }

    public var description: String {
        "line \(line): \(symbol) \(price.decimalString)\(currency.map { " \($0)" } ?? "")\(asOf.map { " as of \($0)" } ?? "")"
    }
}
