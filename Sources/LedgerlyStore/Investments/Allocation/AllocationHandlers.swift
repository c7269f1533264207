import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.allocation.set|show|check`: target shares of the portfolio per allocation group or
/// asset type, where the portfolio stands, and drift episodes with their one alert each
/// (docs/investments.md, "Allocation").
enum AllocationHandlers {
    /// A group's (and a target key's) longest name: the drift alert's key,
    /// `allocation.drift:assetType:<key>:<episode>`, must stay within an alert key's 100.
    static let maximumKeyLength = 60

    static func set(_ request: AllocationSetRequest, _ context: inout WriteContext) throws -> AllocationReply {
        let db = context.db
        let key = try InputRules.name(request.key, field: .body("key"))
        guard key.count <= maximumKeyLength else {
            throw LedgerError.invalid("body.key is longer than \(maximumKeyLength) characters", field: .body("key"))
        }
        if request.dimension == .assetType, AssetType(rawValue: key) == nil {
            throw LedgerError.invalid("body.key must be an asset type (\(AssetType.allCases.map(\.rawValue).joined(separator: ", "))), got '\(key)'", field: .body("key"))
        }
        if let text = request.percent {
            let hundredths = try percent(text, field: .body("percent"))
            let others = try AllocationTargetRow.otherPercents(db, dimension: request.dimension.rawValue, except: key)
                .reduce(Int64(0)) { $0 + ((try? percent($1, field: .wholeBody)) ?? 0) }
            guard others + hundredths <= 10_000 else {
                throw LedgerError.invalid("the \(request.dimension.rawValue) targets would add up to \(percentText(others + hundredths)) %, more than 100", field: .body("percent"))
            }
            try AllocationTargetRow.set(db, dimension: request.dimension.rawValue, key: key, percent: percentText(hundredths))
        } else {
            guard try AllocationTargetRow.remove(db, dimension: request.dimension.rawValue, key: key) else { throw LedgerError.notFound("there is no \(request.dimension.rawValue) target '\(key)'", field: .body("key")) }
        }
        let reply = try allocation(request.dimension, db: db, now: context.date)
        try context.record(.allocationUpdated, id: "\(request.dimension.rawValue):\(key)", data: reply)
        return reply
    }

    static func show(_ request: AllocationShowRequest, _ context: ReadContext) throws -> AllocationReply {
        try allocation(request.dimension ?? .group, db: context.db, now: context.date)
    }

    /// Starts a drift episode (and raises its one alert) for each target newly past the threshold;
    /// ends the episode of each back within it. The state is in `allocation_targets`, so repeated
    /// checks and restarts change nothing until the drift does.
    static func check(_ request: AllocationCheckRequest, _ context: inout WriteContext) throws -> AllocationCheckReply {
        let db = context.db
        var raised: [AlertRecord] = []
        var drifting: [String] = []
        for dimension in AllocationDimension.allCases {
            let targets = try AllocationTargetRow.of(db, dimension: dimension.rawValue)
            guard !targets.isEmpty else { continue }
            let allocation = try allocation(dimension, db: db, now: context.date)
            for target in targets {
                let key = target.key
                guard let line = allocation.lines.first(where: { $0.key.lowercased() == key.lowercased() }) else { continue }
                let was = target.drifting
                if line.drifting { drifting.append("\(dimension.rawValue):\(key)") }
                if line.drifting && !was {
                    let episode = target.episode + 1
                    try AllocationTargetRow.setDrifting(db, dimension: dimension.rawValue, key: key, episode: episode)
                    let reply = try AlertHandlers.insert(AlertRaiseRequest(
                        kind: .allocationDrift, key: "allocation.drift:\(dimension.rawValue):\(key.lowercased()):\(episode)", subject: key,
                        message: "\(key) is \(line.actual) % of the portfolio against a target of \(line.target ?? "0") % (drift \(line.drift ?? "0") points, threshold \(allocation.threshold))",
                        period: nil, threshold: nil, data: nil), &context)
                    if !reply.duplicate { raised.append(reply.alert) }
                } else if !line.drifting && was {
                    try AllocationTargetRow.setDrifting(db, dimension: dimension.rawValue, key: key, episode: nil)
                }
            }
        }
        return AllocationCheckReply(raised: raised, drifting: drifting)
    }

    /// The portfolio by group or asset type: every holding with a value, in the ledger's base
    /// currency at the latest rates.
    static func allocation(_ dimension: AllocationDimension, db: Database, now: Date) throws -> AllocationReply {
        let settings = try SettingsRow.current(db)
        guard let baseCode = settings.baseCurrency else { throw LedgerError.notSetUp("the ledger has no base currency yet: run `ledgerly setup`") }
        let base = try InputRules.currency(baseCode, field: .wholeBody)
        var reader = try HoldingsReader(db: db, now: now)
        // Keys compare ignoring case ("Core" and "core" are one group, shown as first met).
        var values: [String: Int64] = [:]
        var spelling: [String: String] = [:]
        var warnings: [String] = []
        var rates: [String: ExchangeRate?] = [:]
        for holding in try reader.holdings(accountId: nil, includeLots: false) {
            let record = holding.record
            let named = dimension == .group ? (record.allocationGroup ?? "(no group)") : record.assetType.rawValue
            let key = named.lowercased()
            if spelling[key] == nil { spelling[key] = named }
            guard let value = holding.valueBase else {
                warnings.append("\(record.symbol) is left out: \(record.warnings.joined(separator: "; "))")
                continue
            }
            var inBase = value
            if holding.baseCurrency != base.code {
                let from = try InputRules.currency(holding.baseCurrency, field: .wholeBody)
                if rates[from.code] == nil {
                    rates[from.code] = .some(try? TradeRules.rate(nil, from: from, to: base, day: Timestamp.today(at: now), db: db, now: now, field: .wholeBody))
                }
                guard let rate = rates[from.code] ?? nil else {
                    warnings.append("\(record.symbol) is left out: no rate from \(from.code) to \(base.code)")
                    continue
                }
                inBase = try TradeRules.convert(value, from: from, to: base, rate: rate, field: .wholeBody)
            }
            values[key, default: 0] += inBase
        }
        var targets: [String: Int64] = [:]
        for row in try AllocationTargetRow.of(db, dimension: dimension.rawValue) {
            let key = row.key.lowercased()
            targets[key] = try percent(row.percent, field: .wholeBody)
            if spelling[key] == nil { spelling[key] = row.key }
        }
        let total = values.values.reduce(0, +)
        let threshold = Int64(settings.allocationDriftPoints) * 100
        let keys = Set(values.keys).union(targets.keys)
        let lines = keys.sorted().map { key -> AllocationLine in
            let value = values[key] ?? 0
            let actual = total > 0 ? ExactShares.prorate(10_000, part: Int128(value), whole: Int128(total)) : 0
            let target = targets[key]
            let drift = target.map { actual - $0 }
            return AllocationLine(key: spelling[key] ?? key, target: target.map(percentText), actual: percentText(actual),
                                  drift: drift.map(percentText), value: InputRules.format(value, base.code),
                                  drifting: drift.map { abs($0) > threshold } ?? false)
        }
        return AllocationReply(dimension: dimension, currency: base.code, total: InputRules.format(total, base.code),
                               threshold: percentText(threshold), lines: lines, warnings: warnings)
    }

    /// Hundredths of a percent as text with two decimals ("37.50", "-2.25").
    static func percentText(_ hundredths: Int64) -> String { Money.format(minorUnits: hundredths, exponent: 2) }

    /// A percentage 0...100 with at most two decimals, in hundredths.
    static func percent(_ text: String, field: @autoclosure () -> FieldPath) throws -> Int64 {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 3, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
              parts.count == 1 || (1...2).contains(parts[1].count) && parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
              let units = Int64(whole), let fraction = Int64(parts.count == 2 ? parts[1].padding(toLength: 2, withPad: "0", startingAt: 0) : "0")
        else { throw LedgerError.invalid("\(field()) must be a percentage from 0 to 100 with at most two decimals, got '\(text)'", field: field()) }
        let value = units * 100 + fraction
        guard value <= 10_000 else { throw LedgerError.invalid("\(field()) must be at most 100, got \(text)", field: field()) }
        return value
    }
}
