import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// A deterministic investment history for the `invest` benchmark: assets spread over a few
/// accounts, each with its trades in date order from 2016 to mid-2025 (buys, sales of part of what
/// is held, dividends), a few 2:1 splits after the last trade, and a closing price per asset.
/// It keeps what it generated (units held, sales per year), so a run can check the store's
/// replies against it.
public struct InvestHistory: Sendable {
    public struct Asset: Sendable {
        public let symbol: String
        public let assetType: AssetType
        public let quoteCurrency: String
        public let group: String
        /// Index into `accounts`.
        public let account: Int
        /// The trades, oldest first (the account and wallet are filled in when sent).
        public let lines: [TradeImportLine]
        /// Split 2:1 on `splitDate` after its last trade.
        public let split: Bool
        /// Units held at the end, in tenths, the split included.
        public let heldTenths: Int
        /// The closing price, in cents.
        public let closeCents: Int
    }

    /// Names and cost-basis methods of the accounts, all counting in EUR.
    public static let accounts: [(name: String, method: CostBasisMethod)] = [("Broker FIFO", .fifo), ("Broker LIFO", .lifo), ("Pension average", .average), ("Savings FIFO", .fifo)]
    public static let groups = ["core", "growth", "income", "speculative"]
    public static let splitDate = "2025-09-01"
    /// Days from 2016-01-01 over which each asset's trades are spread (to mid-2025).
    static let days = 3_468

    public let assets: [Asset]

    public var tradeCount: Int { assets.reduce(0) { $0 + $1.lines.count } }
    public var splitCount: Int { assets.filter(\.split).count }
    public func count(_ kind: TradeKind) -> Int { assets.reduce(0) { $0 + $1.lines.filter { $0.kind == kind }.count } }
    public func sales(inYear year: Int) -> Int {
        assets.reduce(0) { $0 + $1.lines.filter { $0.kind == .sell && $0.date.hasPrefix("\(year)-") }.count }
    }

    /// `trades` spread evenly over `assets` (the first ones take the remainder); `splits` assets,
    /// evenly spaced, split 2:1.
    public init(assets assetCount: Int, trades: Int, splits: Int, seed: UInt64 = 14) {
        var random = SplitMix(seed: seed)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let start = 1_451_606_400.0  // 2016-01-01T00:00:00Z
        let dates = (0..<Self.days).map { formatter.string(from: Date(timeIntervalSince1970: start + Double($0) * 86_400)) }
        let splitEvery = splits > 0 ? max(1, assetCount / splits) : Int.max
        var assets: [Asset] = []
        assets.reserveCapacity(assetCount)
        for index in 0..<assetCount {
            let count = trades / assetCount + (index < trades % assetCount ? 1 : 0)
            let usd = index % 5 == 4
            var held = 0
            var cents = 1_000 + Int(random.next() % 49_000)
            var lines: [TradeImportLine] = []
            lines.reserveCapacity(count)
            for number in 0..<count {
                let day = number * Self.days / max(count, 1)
                let date = dates[day]
                let roll = Int(random.next() % 100)
                cents = max(100, cents + cents * (Int(random.next() % 11) - 5) / 100)
                let fee = random.next() % 3 == 0 ? nil : "\(random.next() % 5).\(random.next() % 2 == 0 ? "00" : "50")"
                let rate = usd ? "0.\(8_500 + (day * 37) % 1_500)" : nil
                let kind: TradeKind = number < 2 || held == 0 ? .buy : roll < 50 ? .buy : roll < 92 ? .sell : .dividend
                switch kind {
                case .sell:
                    let quantity = 1 + Int(random.next() % UInt64(max(1, held / 2)))
                    held -= quantity
                    // The store refuses a fee that is not less than the sale's amount.
                    lines.append(TradeImportLine(line: lines.count + 1, kind: .sell, symbol: "", date: date, quantity: Self.tenths(quantity),
                                                 price: Self.cents(cents), fee: quantity * cents / 10 > 1_000 ? fee : nil, rate: rate))
                case .dividend:
                    lines.append(TradeImportLine(line: lines.count + 1, kind: .dividend, symbol: "", date: date,
                                                 amount: Self.cents(100 + Int(random.next() % 20_000))))
                default:
                    let quantity = 10 + Int(random.next() % 500)
                    held += quantity
                    lines.append(TradeImportLine(line: lines.count + 1, kind: .buy, symbol: "", date: date, quantity: Self.tenths(quantity),
                                                 price: Self.cents(cents), fee: fee, rate: rate))
                }
            }
            let symbol = "B\(String(index + 10_000).dropFirst())"
            let split = index % splitEvery == splitEvery / 2 && assets.filter(\.split).count < splits && held > 0
            assets.append(Asset(
                symbol: symbol, assetType: index % 10 == 9 ? .bond : index % 3 == 0 ? .etf : .stock, quoteCurrency: usd ? "USD" : "EUR",
                group: Self.groups[index % Self.groups.count], account: index % Self.accounts.count,
                lines: lines.map { line in
                    var line = line
                    line.symbol = symbol
                    return line
                },
                split: split, heldTenths: split ? held * 2 : held, closeCents: cents))
        }
        self.assets = assets
    }

    /// Tenths as a quantity ("12.3", "40").
    public static func tenths(_ value: Int) -> String { value % 10 == 0 ? "\(value / 10)" : "\(value / 10).\(value % 10)" }

    /// Cents as a decimal ("123.45").
    public static func cents(_ value: Int) -> String { "\(value / 100).\(value % 100 < 10 ? "0" : "")\(value % 100)" }
}
