import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 15, net worth, through the real store and alerts service: the alerts service
    /// back-fills a year of monthly snapshots, each equal to a computation by hand from the
    /// inputs (docs/networth.md); a month that ends while everything is down is taken afterwards;
    /// a `kill -9` of the alerts service (and of the store) in the middle of a long back-fill
    /// leaves exactly one snapshot per month; a rate recorded later leaves a snapshot as it was
    /// while `recompute` shows the new figure beside it.
    @Suite struct NetWorthTests {
        static func snapshots(_ client: RequestClient, recompute: Bool = false) throws -> NetWorthSnapshotListReply {
            try client.call(NetWorthSnapshotListRequest(recompute: recompute))
        }

        /// Runs of the snapshotter that ended with nothing missing, logged by every alerts process
        /// the test started on this home: waiting for one more than before is waiting for a
        /// (re)started service to have looked at the months.
        static func completeRuns(_ harness: ServiceHarness) -> Int {
            harness.log(.alerts).components(separatedBy: "net worth snapshots up to date").count - 1
        }

        /// Every month from `first` to `last` once, in order, and nothing missing.
        static func expectOnePerMonth(_ list: NetWorthSnapshotListReply, from first: String, to last: String, sourceLocation: SourceLocation = #_sourceLocation) {
            var months: [String] = []
            var month = first
            while month <= last {
                months.append(month)
                month = LedgerMonth.next(month)
            }
            #expect(list.snapshots.map(\.month) == months, sourceLocation: sourceLocation)
            #expect(Set(list.snapshots.map(\.month)).count == list.snapshots.count, sourceLocation: sourceLocation)
            #expect(list.missing.isEmpty, "\(list.missing)", sourceLocation: sourceLocation)
        }

        @Test func theAlertsServiceBackFillsEachMonthAndEachSnapshotEqualsTheHandComputation() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            var ledger = try NetWorthLedger.record(client)

            try harness.start(.alerts)
            defer { harness.stop(.alerts) }
            try harness.waitFor("the back-fill", seconds: 60) { Self.completeRuns(harness) >= 1 }
            let list = try Self.snapshots(client)
            Self.expectOnePerMonth(list, from: ledger.months[0], to: ledger.months[11])
            for snapshot in list.snapshots {
                let expected = ledger.figures(at: LedgerMonth.lastDay(of: snapshot.month))
                #expect(NetWorthLedger.minor(snapshot.figures) == expected, "\(snapshot.month): \(snapshot.figures)")
                #expect(snapshot.date == LedgerMonth.lastDay(of: snapshot.month))
                #expect(snapshot.baseCurrency == "EUR")
                #expect(snapshot.complete, "\(snapshot.month): \(snapshot.warnings)")
            }
            // The figures move: the house's revaluations, the crypto, the rates all show.
            #expect(Set(list.snapshots.map(\.figures.netWorth)).count == 12)
            #expect(harness.log(.alerts).components(separatedBy: "net worth snapshot taken").count - 1 == 12)

            // A rate recorded later for the end of month 6 (a correction, the same day, later in
            // it): the snapshot stays as taken; recomputing shows the new figure beside it, and
            // only for that month (the next months have rates of their own).
            let corrected = ledger.months[5]
            let correction = (asOf: "\(LedgerMonth.lastDay(of: corrected))T20:00:00Z", rate: Decimal(string: "1.2500")!)
            _ = try client.call(RateSetRequest(base: "EUR", quote: "USD", rate: "1.2500", asOf: correction.asOf))
            let before = ledger.figures(at: LedgerMonth.lastDay(of: corrected))
            ledger.rates.append(correction)
            let after = ledger.figures(at: LedgerMonth.lastDay(of: corrected))
            #expect(before != after)
            let recomputed = try Self.snapshots(client, recompute: true)
            #expect(recomputed.snapshots.map(\.figures) == list.snapshots.map(\.figures))
            for snapshot in recomputed.snapshots {
                let expected = ledger.figures(at: LedgerMonth.lastDay(of: snapshot.month))
                #expect(snapshot.recomputed.flatMap { NetWorthLedger.minor($0) } == expected, "\(snapshot.month)")
                #expect(snapshot.differs == (snapshot.month == corrected), "\(snapshot.month)")
            }
            let stored = try #require(recomputed.snapshots.first { $0.month == corrected })
            #expect(NetWorthLedger.minor(stored.figures) == before)
            // The same moment asked now gives the new figure.
            #expect(NetWorthLedger.minor(try client.call(NetWorthRequest(at: LedgerMonth.lastDay(of: corrected))).figures) == after)
            // A restarted alerts service takes nothing again.
            let runs = Self.completeRuns(harness)
            harness.stop(.alerts)
            try harness.start(.alerts)
            try harness.waitFor("the restarted alerts service to look at the months") { Self.completeRuns(harness) > runs }
            #expect(try Self.snapshots(client).snapshots.map(\.figures) == list.snapshots.map(\.figures))
            #expect(harness.log(.alerts).components(separatedBy: "net worth snapshot taken").count - 1 == 12)
        }

        @Test func aMonthThatEndedWhileEverythingWasDownIsTakenOnceAsOfItsEnd() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            var ledger = try NetWorthLedger.record(client)
            try harness.start(.alerts)
            try harness.waitFor("twelve snapshots", seconds: 60) { try Self.snapshots(client).snapshots.count >= 12 }

            // Everything stops; the clock moves to the 2nd of next month: this month has ended.
            harness.stop(.alerts)
            harness.stop(.store)
            let offset = ["--clock-offset", String(NetWorthLedger.secondsToTheSecondOfNextMonth())]
            let thisMonth = String(Timestamp.today().prefix(7))
            try harness.start(.store, extraArguments: offset)
            // Before the alerts service is back, the house is revalued as of this month: the
            // snapshot, taken late, is computed as of the month's end from what is recorded then.
            let house = try #require(try client.call(ManualAssetListRequest()).assets.first { $0.name == "House" })
            _ = try client.call(ManualAssetRevalueRequest(id: house.id, value: "433000.00", date: "\(thisMonth)-20"))
            ledger.house.append(("\(thisMonth)-20", 43_300_000))
            try harness.start(.alerts, extraArguments: offset)
            try harness.waitFor("this month's snapshot", seconds: 60) { try Self.snapshots(client).snapshots.count >= 13 }
            for _ in 0..<2 {
                let runs = Self.completeRuns(harness)
                harness.stop(.alerts, signal: SIGKILL)
                try harness.start(.alerts, extraArguments: offset)
                try harness.waitFor("the restarted service to find nothing missing") { Self.completeRuns(harness) > runs }
            }
            let list = try Self.snapshots(client)
            Self.expectOnePerMonth(list, from: ledger.months[0], to: thisMonth)
            let taken = try #require(list.snapshots.last)
            #expect(taken.month == thisMonth)
            #expect(taken.date == LedgerMonth.lastDay(of: thisMonth))
            // As of its end, from history: the revaluation counts, the rate is month 12's.
            #expect(NetWorthLedger.minor(taken.figures) == ledger.figures(at: LedgerMonth.lastDay(of: thisMonth)), "\(taken.figures) \(taken.warnings)")
            #expect(taken.takenAt > LedgerMonth.lastDay(of: thisMonth))
            harness.stop(.alerts)
        }

        @Test func killingTheAlertsServiceAndTheStoreDuringALongBackFillTakesEveryMonthOnce() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client(timeoutMilliseconds: 10_000)
            defer { client.close() }
            // Fifteen years of history: a flat bought 180 months ago, revalued every January, and
            // its loan, paid down by a balance statement every July.
            let last = LedgerMonth.previous(String(Timestamp.today().prefix(7)))
            var first = last
            for _ in 1..<180 { first = LedgerMonth.previous(first) }
            let flat = try client.call(ManualAssetCreateRequest(name: "Flat", value: "200000.00", valuedOn: "\(first)-01"))
            let loan = try client.call(LiabilityCreateRequest(name: "Loan", liabilityType: .mortgage, balance: "150000.00", balanceOn: "\(first)-01"))
            var month = LedgerMonth.next(first), index = 1
            var flatValue: Int64 = 20_000_000, loanBalance: Int64 = 15_000_000
            var expected: [String: Int64] = [first: flatValue - loanBalance]
            while month <= last {
                if month.hasSuffix("-01") {
                    flatValue += 412_345
                    _ = try client.call(ManualAssetRevalueRequest(id: flat.id, value: NetWorthLedger.format(flatValue), date: "\(month)-01"))
                }
                if month.hasSuffix("-07") {
                    loanBalance -= 800_000
                    _ = try client.call(LiabilityRevalueRequest(id: loan.id, balance: NetWorthLedger.format(loanBalance), date: "\(month)-15"))
                }
                expected[month] = flatValue - loanBalance
                month = LedgerMonth.next(month)
                index += 1
            }
            #expect(index == 180)

            // The alerts service is killed as soon as the first snapshots appear, restarted, then
            // the store is killed under it and restarted (in debug builds on the 2-core machine the
            // kills came after 4 and after 7–10 of the 180 months; nothing here depends on it).
            try harness.start(.alerts)
            try harness.waitFor("the first snapshot", seconds: 60) { try !Self.snapshots(client).snapshots.isEmpty }
            harness.stop(.alerts, signal: SIGKILL)
            let atFirstKill = try Self.snapshots(client).snapshots.count
            try harness.start(.alerts)
            try harness.waitFor("more snapshots", seconds: 60) { try Self.snapshots(client).snapshots.count > atFirstKill }
            let atStoreKill = try Self.snapshots(client).snapshots.count
            harness.stop(.store, signal: SIGKILL)
            try harness.start(.store)
            try harness.waitFor("the alerts service to notice the store's restart", seconds: 60) {
                harness.log(.alerts).contains("the store restarted")
            }
            try harness.waitFor("every month", seconds: 120) { try Self.snapshots(client).missing.isEmpty }
            let runs = Self.completeRuns(harness)
            harness.stop(.alerts, signal: SIGKILL)
            try harness.start(.alerts)
            try harness.waitFor("the restarted service to find nothing missing") { Self.completeRuns(harness) > runs }

            let list = try Self.snapshots(client)
            Self.expectOnePerMonth(list, from: first, to: last)
            #expect(list.snapshots.count == 180)
            for snapshot in list.snapshots {
                #expect(NetWorthLedger.minor(snapshot.figures.netWorth) == expected[snapshot.month], "\(snapshot.month): \(snapshot.figures)")
            }
            #expect(atFirstKill >= 1)
            #expect(atStoreKill > atFirstKill)
            harness.stop(.alerts)
        }
    }
}

/// The year of history the snapshot tests record, and the figures worked out by hand from it
/// (docs/networth.md, "Net worth at a moment"), in exact minor units: EUR base; a Checking
/// wallet paid a salary and charged groceries and the mortgage each month; a USD wallet; a house
/// (tangible) revalued twice; a EUR mortgage with an interest statement; a volatile crypto asset
/// in USD revalued monthly; EUR/USD rates in the middle and at the end of every month.
struct NetWorthLedger {
    /// Twelve ended months, oldest first; the last is last month.
    let months: [String]
    /// Signed amounts by day, in minor units of the wallet's currency.
    var checking: [(date: String, minor: Int64)] = []
    var dollars: [(date: String, minor: Int64)] = []
    /// Valuations in the order recorded.
    var house: [(date: String, minor: Int64)] = []
    var crypto: [(date: String, minor: Int64)] = []
    /// Balance after each entry, in the order of day then record.
    var mortgage: [(date: String, balance: Int64)] = []
    /// EUR/USD (USD per EUR), as recorded.
    var rates: [(asOf: String, rate: Decimal)] = []

    struct Figures: Equatable, CustomStringConvertible {
        var totalAssets: Int64, totalLiabilities: Int64, netWorth: Int64, core: Int64, tangible: Int64, volatile: Int64
        var description: String { "assets \(totalAssets) liabilities \(totalLiabilities) net \(netWorth) core \(core) tangible \(tangible) volatile \(volatile)" }
    }

    /// Records the year through the protocol and keeps what it recorded.
    static func record(_ client: RequestClient) throws -> NetWorthLedger {
        var months = [LedgerMonth.previous(String(Timestamp.today().prefix(7)))]
        while months.count < 12 { months.insert(LedgerMonth.previous(months[0]), at: 0) }
        var ledger = NetWorthLedger(months: months)
        let checking = try client.call(WalletCreateRequest(name: "Checking", currency: "EUR"))
        let dollars = try client.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
        let salary = try client.call(CategoryCreateRequest(name: "Salary", kind: .income))
        let groceries = try client.call(CategoryCreateRequest(name: "Groceries", kind: .expense))

        // Rates first, so every transaction has its day's rate.
        var rates = [RateInput(base: "EUR", quote: "USD", rate: "1.0800", asOf: "\(months[0])-01T09:00:00Z")]
        for (i, month) in months.enumerated() {
            rates.append(RateInput(base: "EUR", quote: "USD", rate: rateText(10_700 + i * 43), asOf: "\(month)-14T16:00:00Z"))
            rates.append(RateInput(base: "EUR", quote: "USD", rate: rateText(10_650 + i * 57 + (i % 2) * 11), asOf: "\(LedgerMonth.lastDay(of: month))T16:00:00Z"))
        }
        _ = try client.call(RateBatchRequest(profileId: 1, source: "ecb", rates: rates))
        ledger.rates = rates.map { (asOf: $0.asOf, rate: Decimal(string: $0.rate)!) }

        let house = try client.call(ManualAssetCreateRequest(name: "House", assetType: .tangible, value: "410000.00", currency: "EUR", valuedOn: "\(months[0])-02"))
        ledger.house.append(("\(months[0])-02", 41_000_000))
        let mortgage = try client.call(LiabilityCreateRequest(name: "Mortgage", liabilityType: .mortgage, balance: "300000.00", currency: "EUR", balanceOn: "\(months[0])-02",
                                                              interestRate: "3.10"))
        ledger.mortgage.append(("\(months[0])-02", 30_000_000))
        var crypto: ManualAssetRecord?

        for (i, month) in months.enumerated() {
            _ = try client.call(TransactionCreateRequest(kind: .income, walletId: checking.id, amount: "4200.00", categoryId: salary.id, date: "\(month)-01"))
            ledger.checking.append(("\(month)-01", 420_000))
            _ = try client.call(LiabilityPayRequest(id: mortgage.id, walletId: checking.id, amount: "1150.00", date: "\(month)-03"))
            ledger.checking.append(("\(month)-03", -115_000))
            ledger.mortgage.append(("\(month)-03", ledger.mortgage.last!.balance - 115_000))
            let food = Int64(30_000 + i * 1_719)
            _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: checking.id, amount: format(food), categoryId: groceries.id, date: "\(month)-10"))
            ledger.checking.append(("\(month)-10", -food))
            if i == 6 {
                // An interest statement: the balance is set, not lowered.
                let balance = ledger.mortgage.last!.balance + 243_177
                _ = try client.call(LiabilityRevalueRequest(id: mortgage.id, balance: format(balance), date: "\(month)-25"))
                ledger.mortgage.append(("\(month)-25", balance))
            }
            let pay = Int64(25_000 + i * 1_337)
            _ = try client.call(TransactionCreateRequest(kind: .income, walletId: dollars.id, amount: format(pay), categoryId: salary.id, date: "\(month)-15"))
            ledger.dollars.append(("\(month)-15", pay))
            if i % 4 == 3 {
                _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: dollars.id, amount: "120.50", categoryId: groceries.id, date: "\(month)-18"))
                ledger.dollars.append(("\(month)-18", -12_050))
            }
            if i == 4 || i == 9 {
                let value: Int64 = i == 4 ? 42_500_000 : 43_150_000
                let day = i == 4 ? "15" : "28"
                _ = try client.call(ManualAssetRevalueRequest(id: house.id, value: format(value), date: "\(month)-\(day)"))
                ledger.house.append(("\(month)-\(day)", value))
            }
            if i >= 1 {
                let value = Int64(300_000 + i * 51_731 - (i % 3) * 81_109)
                if let asset = crypto {
                    _ = try client.call(ManualAssetRevalueRequest(id: asset.id, value: format(value), date: "\(month)-12"))
                } else {
                    crypto = try client.call(ManualAssetCreateRequest(name: "Crypto", assetType: .intangible, value: format(value), currency: "USD", valuedOn: "\(month)-12",
                                                                      volatile: true))
                }
                ledger.crypto.append(("\(month)-12", value))
            }
        }
        return ledger
    }

    /// The figures at the end of `day`, by the rules: each item's amount then, converted once
    /// (USD ÷ the EUR/USD rate in force, rounded half to even to cents), then summed.
    func figures(at day: String) -> Figures {
        let moment = "\(day)T23:59:59.999Z"
        let rate = rates.filter { $0.asOf <= moment }.max { $0.asOf < $1.asOf }!.rate
        func euros(_ usd: Int64) -> Int64 {
            var exact = Decimal(usd) / rate
            var rounded = Decimal()
            NSDecimalRound(&rounded, &exact, 0, .bankers)
            return Int64(rounded.description)!
        }
        func latest(_ values: [(date: String, minor: Int64)]) -> Int64? {
            values.filter { $0.date <= day }.last?.minor  // recorded in day order
        }
        var items: [(base: Int64, core: Bool, tangible: Bool, volatile: Bool)] = []
        if checking.contains(where: { $0.date <= day }) {
            items.append((checking.filter { $0.date <= day }.reduce(0) { $0 + $1.minor }, true, true, false))
        }
        if dollars.contains(where: { $0.date <= day }) {
            items.append((euros(dollars.filter { $0.date <= day }.reduce(0) { $0 + $1.minor }), true, true, false))
        }
        if let value = latest(house) { items.append((value, true, true, false)) }
        if let value = latest(crypto) { items.append((euros(value), false, false, true)) }
        if let balance = mortgage.filter({ $0.date <= day }).last?.balance { items.append((-balance, true, true, false)) }
        let net = items.reduce(0) { $0 + $1.base }
        let assets = items.filter { $0.base > 0 }.reduce(0) { $0 + $1.base }
        return Figures(totalAssets: assets, totalLiabilities: assets - net, netWorth: net,
                       core: items.filter { $0.core }.reduce(0) { $0 + $1.base }, tangible: items.filter { $0.tangible }.reduce(0) { $0 + $1.base },
                       volatile: items.filter { $0.volatile }.reduce(0) { $0 + $1.base })
    }

    static func minor(_ figures: NetWorthFigures) -> Figures? {
        guard let assets = minor(figures.totalAssets), let liabilities = minor(figures.totalLiabilities), let net = minor(figures.netWorth),
              let core = minor(figures.core), let tangible = minor(figures.tangible), let volatile = minor(figures.volatile) else { return nil }
        return Figures(totalAssets: assets, totalLiabilities: liabilities, netWorth: net, core: core, tangible: tangible, volatile: volatile)
    }

    /// "-1234.50" → -123450; nil for anything but a plain amount with two decimals.
    static func minor(_ text: String) -> Int64? {
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let units = Int64(parts[0]), let cents = Int64(parts[1]) else { return nil }
        return (negative ? -1 : 1) * (units * 100 + cents)
    }

    static func format(_ minor: Int64) -> String {
        let cents = abs(minor) % 100
        return "\(minor < 0 ? "-" : "")\(abs(minor) / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// 10_712 → "1.0712".
    static func rateText(_ tenThousandths: Int) -> String {
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// From now to noon UTC on the 2nd of next month, in whole seconds.
    static func secondsToTheSecondOfNextMonth() -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = Date()
        let startOfMonth = calendar.date(from: calendar.dateComponents([.year, .month], from: now))!
        let target = calendar.date(byAdding: DateComponents(month: 1, day: 1, hour: 12), to: startOfMonth)!
        return Int64(target.timeIntervalSince(now).rounded(.up))
    }
}
