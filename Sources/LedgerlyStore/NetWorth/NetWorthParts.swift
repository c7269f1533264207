import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// The breakdown as it is built, and the figures summed from each counted, valued item's parts
/// (docs/networth.md, "Net worth at a moment").
struct NetWorthParts {
    /// The figures in minor units of the base currency.
    struct Sums: Equatable, Codable {
        var totalAssets: Int64 = 0
        var totalLiabilities: Int64 = 0
        var netWorth: Int64 = 0
        var core: Int64 = 0
        var tangible: Int64 = 0
        var volatile: Int64 = 0

        func figures(_ currency: String) -> NetWorthFigures {
            let format = { InputRules.format($0, currency) }
            return NetWorthFigures(totalAssets: format(totalAssets), totalLiabilities: format(totalLiabilities), netWorth: format(netWorth), core: format(core),
                                   tangible: format(tangible), volatile: format(volatile))
        }
    }

    let base: Currency
    private(set) var items: [NetWorthItem] = []
    private(set) var sums = Sums()
    /// False once an item that would count could not be valued (in whole or in part).
    private(set) var complete = true

    init(base: Currency) { self.base = base }

    /// A wallet, manual asset or liability: `valued` is its signed base value and the rate used.
    /// Without one it is not valued: no value, not counted, and named in `notValued` when it
    /// would have counted (D410).
    mutating func add(kind: NetWorthItemKind, id: Int64, name: String, currency: String, amount: Int64, valued: (Int64, RateSnapshot?)?,
                      core: Bool, tangible: Bool, volatile: Bool, counted: Bool, archived: Bool, warnings: [String]) throws {
        let baseValue = valued?.0
        let parts = baseValue.map { value in (core: core ? value : 0, tangible: tangible ? value : 0, volatile: volatile ? value : 0) }
        let leftOut = counted && baseValue == nil ? [name] : nil
        items.append(NetWorthItem(
            kind: kind, id: id, name: name, currency: currency, amount: InputRules.format(amount, currency), baseValue: baseValue.map(format),
            corePart: parts.map { format($0.core) }, tangiblePart: parts.map { format($0.tangible) }, volatilePart: parts.map { format($0.volatile) },
            rate: valued?.1?.rate, rateAsOf: valued?.1?.asOf, counted: counted && baseValue != nil, archived: archived, warnings: warnings, notValued: leftOut))
        guard counted else { return }
        guard let baseValue, let parts else {
            complete = false
            return
        }
        try count(baseValue, core: parts.core, tangible: parts.tangible, volatile: parts.volatile)
    }

    /// An investment account: the sum of its valued holdings, `speculative` of it in speculative
    /// groups (volatile, not core). `unvalued`: the symbols of its holdings without a price or
    /// rate, left out of the sum and named; when none is valued the account is not valued at
    /// all (no value, not counted), never worth 0 (D410).
    mutating func addAccount(id: Int64, name: String, value: Int64, speculative: Int64, valuedHoldings: Int, unvalued: [String], counted: Bool, archived: Bool,
                             warnings: [String]) throws {
        let valued = valuedHoldings > 0 || unvalued.isEmpty
        let leftOut = !counted || unvalued.isEmpty ? nil : valued ? unvalued.map { "\(name): \($0)" } : [name]
        items.append(NetWorthItem(
            kind: .investmentAccount, id: id, name: name, currency: nil, amount: nil, baseValue: valued ? format(value) : nil, corePart: valued ? format(value - speculative) : nil,
            tangiblePart: valued ? format(0) : nil, volatilePart: valued ? format(speculative) : nil, rate: nil, rateAsOf: nil, counted: counted && valued,
            archived: archived, warnings: warnings, notValued: leftOut))
        guard counted else { return }
        if !unvalued.isEmpty { complete = false }
        guard valued else { return }
        try count(value, core: value - speculative, tangible: 0, volatile: speculative)
    }

    /// Everything left out of the figures for want of a price or a rate, in breakdown order.
    static func notValued(_ items: [NetWorthItem]) -> [String] { items.flatMap { $0.notValued ?? [] } }

    private mutating func count(_ value: Int64, core: Int64, tangible: Int64, volatile: Int64) throws {
        sums.netWorth = try CheckedMinorUnits.add(sums.netWorth, value)
        if value >= 0 { sums.totalAssets = try CheckedMinorUnits.add(sums.totalAssets, value) } else { sums.totalLiabilities = try CheckedMinorUnits.add(sums.totalLiabilities, -value) }
        sums.core = try CheckedMinorUnits.add(sums.core, core)
        sums.tangible = try CheckedMinorUnits.add(sums.tangible, tangible)
        sums.volatile = try CheckedMinorUnits.add(sums.volatile, volatile)
    }

    private func format(_ minor: Int64) -> String { InputRules.format(minor, base.code) }
}

/// One computation's result, before it becomes a report or a snapshot.
struct NetWorthComputation {
    let date: String
    let asOf: Date
    let baseCurrency: String
    let sums: NetWorthParts.Sums
    let items: [NetWorthItem]
    let complete: Bool

    var figures: NetWorthFigures { sums.figures(baseCurrency) }

    /// Every item's warnings, each prefixed with the item's name.
    var warnings: [String] { items.flatMap { item in item.warnings.map { "\(item.name): \($0)" } } }

    var report: NetWorthReport {
        NetWorthReport(date: date, asOf: Timestamp.string(from: asOf), baseCurrency: baseCurrency, figures: figures, complete: complete, items: items, warnings: warnings,
                       notValued: NetWorthParts.notValued(items))
    }
}
