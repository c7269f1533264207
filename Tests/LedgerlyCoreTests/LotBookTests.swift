import LedgerlyCore
import Testing

/// The worked example of docs/investments.md, by hand: EUR account, USD asset, fee 1.00 USD on
/// each trade; buy 10 @ 100 at 0.90, buy 5 @ 120 at 0.95, sell 8 @ 130 at 0.92.
@Suite struct LotBookTests {
    static let usd = try! Currency(code: "USD")
    static let eur = try! Currency(code: "EUR")

    static func book(_ method: CostBasisMethod) -> LotBook {
        LotBook(method: { _ in method }, toBase: { _, cost, rate in
            try? CurrencyConverter.apply(rate, to: Money(minorUnits: cost, currency: usd), target: eur).minorUnits
        })
    }

    static func q(_ text: String) -> Quantity { try! Quantity(parsing: text) }
    static func rate(_ text: String) -> ExchangeRate { try! ExchangeRate(parsing: text) }

    static let buys: [LotBook.Trade] = [
        .init(id: 1, accountId: 1, date: "2026-01-10", action: .buy(quantity: q("10"), cost: 100_100, costBase: 90_090)),
        .init(id: 2, accountId: 1, date: "2026-02-10", action: .buy(quantity: q("5"), cost: 60_100, costBase: 57_095)),
    ]
    static let sale = LotBook.Trade(id: 3, accountId: 1, date: "2026-03-10", action: .sell(quantity: q("8"), proceeds: 103_900, proceedsBase: 95_588, rate: rate("0.92"), picks: nil))

    static func realised(_ method: CostBasisMethod) throws -> (cost: Int64, costBase: Int64, gain: Int64, price: Int64, currency: Int64, book: LotBook) {
        var book = book(method)
        try book.apply(buys + [sale])
        let parts = book.realisations
        return (parts.map(\.cost).reduce(0, +), parts.map(\.costBase).reduce(0, +), parts.map(\.gain).reduce(0, +),
                parts.map(\.priceEffect).reduce(0, +), parts.map(\.currencyEffect).reduce(0, +), book)
    }

    @Test func fifoTakesTheOldestLot() throws {
        let result = try Self.realised(.fifo)
        #expect(result.cost == 80_080 && result.costBase == 72_072)
        #expect(result.gain == 23_516 && result.currency == 1_602 && result.price == 21_914)
        #expect(result.book.realisations.map(\.lotId) == [1])
        #expect(result.book.lots.map(\.quantity) == [Self.q("2"), Self.q("5")])
        #expect(result.book.lots.map(\.cost) == [20_020, 60_100])
    }

    /// Two lots of one day are taken in their buys' order, which travels with synced trades, not
    /// by lot id (a local id, which another device may give the other way round).
    @Test func lotsOfOneDayGoByTheirBuysOrderNotTheirIds() throws {
        for method in [CostBasisMethod.fifo, .lifo] {
            var book = Self.book(method)
            try book.apply([
                .init(id: 7, accountId: 1, date: "2026-01-10", action: .buy(quantity: Self.q("1"), cost: 10_000, costBase: 9_000), order: "2026-01-10T09:00:00.000Z#1"),
                .init(id: 6, accountId: 1, date: "2026-01-10", action: .buy(quantity: Self.q("1"), cost: 12_000, costBase: 10_800), order: "2026-01-10T09:00:00.000Z#2"),
                .init(id: 8, accountId: 1, date: "2026-03-10", action: .sell(quantity: Self.q("1"), proceeds: 13_000, proceedsBase: 11_960, rate: Self.rate("0.92"), picks: nil)),
            ])
            #expect(book.realisations.map(\.lotId) == (method == .fifo ? [7] : [6]), "\(method)")
        }
    }

    @Test func lifoTakesTheNewestLotFirst() throws {
        let result = try Self.realised(.lifo)
        #expect(result.costBase == 84_122 && result.gain == 11_466)
        #expect(result.currency == -1_202 && result.price == 12_668)
        #expect(result.book.realisations.map(\.lotId) == [2, 1])
        #expect(result.book.realisations.map(\.currencyEffect) == [55_292 - 57_095, 27_628 - 27_027])
    }

    @Test func averageCostTakesTheHoldingsAverage() throws {
        let result = try Self.realised(.average)
        #expect(result.cost == 85_440 && result.costBase == 78_499)
        #expect(result.gain == 17_089 && result.currency == 106 && result.price == 16_983)
        // What is left keeps the rest of the cost exactly.
        #expect(result.book.lots.map(\.cost).reduce(0, +) == 160_200 - 85_440)
        #expect(result.book.lots.map(\.costBase).reduce(0, +) == 147_185 - 78_499)
    }

    @Test func aSaleMayNameItsLots() throws {
        var book = Self.book(.fifo)
        try book.apply(Self.buys)
        try book.apply(.init(id: 3, accountId: 1, date: "2026-03-10", action: .sell(quantity: Self.q("8"), proceeds: 103_900, proceedsBase: 95_588, rate: Self.rate("0.92"),
                                                                                   picks: [.init(lotId: 2, quantity: Self.q("5")), .init(lotId: 1, quantity: Self.q("3"))])))
        #expect(book.realisations.map(\.costBase).reduce(0, +) == 84_122)
        var wrong = Self.book(.fifo)
        try wrong.apply(Self.buys)
        #expect(throws: LotBookError.lotTooSmall(tradeId: 3, lotId: 2, held: Self.q("5"), needed: Self.q("6"))) {
            try wrong.apply(.init(id: 3, accountId: 1, date: "2026-03-10", action: .sell(quantity: Self.q("8"), proceeds: 1, proceedsBase: 1, rate: Self.rate("1"),
                                                                                       picks: [.init(lotId: 2, quantity: Self.q("6")), .init(lotId: 1, quantity: Self.q("2"))])))
        }
    }

    @Test func aSplitMultipliesQuantitiesAndKeepsCost() throws {
        var book = Self.book(.fifo)
        try book.apply(Self.buys + [.init(id: 3, accountId: 0, date: "2026-02-20", action: .split(new: 2, old: 1))])
        #expect(book.lots.map(\.quantity) == [Self.q("20"), Self.q("10")])
        #expect(book.lots.map(\.cost) == [100_100, 60_100])
        var odd = Self.book(.fifo)
        try odd.apply([.init(id: 1, accountId: 1, date: "2026-01-10", action: .buy(quantity: Self.q("1"), cost: 100, costBase: 100))])
        #expect(throws: LotBookError.splitInexact(tradeId: 2, lotId: 1, quantity: Self.q("1"))) {
            try odd.apply(.init(id: 2, accountId: 0, date: "2026-01-11", action: .split(new: 1, old: 3)))
        }
    }

    @Test func aTransferKeepsCostAndDates() throws {
        var book = Self.book(.fifo)
        try book.apply(Self.buys + [.init(id: 3, accountId: 1, date: "2026-03-01", action: .transfer(toAccountId: 2, quantity: Self.q("12"), picks: nil))])
        let moved = book.lots.filter { $0.accountId == 2 }.sorted { $0.id < $1.id }
        #expect(moved.map(\.id) == [1, 2] && moved.map(\.acquired) == ["2026-01-10", "2026-02-10"])
        #expect(moved.map(\.quantity) == [Self.q("10"), Self.q("2")])
        #expect(moved.map(\.cost) == [100_100, 24_040])
        #expect(book.lots.filter { $0.accountId == 1 }.map(\.cost) == [36_060])
    }

    @Test func sellingMoreThanIsHeldIsRefusedNamingTheSale() throws {
        var book = Self.book(.fifo)
        try book.apply(Self.buys)
        #expect(throws: LotBookError.insufficient(tradeId: 9, accountId: 1, held: Self.q("15"), needed: Self.q("16"))) {
            try book.apply(.init(id: 9, accountId: 1, date: "2026-04-01", action: .sell(quantity: Self.q("16"), proceeds: 1, proceedsBase: 1, rate: Self.rate("1"), picks: nil)))
        }
    }

    @Test func quantitiesAreExactDecimals() throws {
        #expect(Self.q("0.100").description == "0.1")
        #expect(Self.q("123456789012345.12345").description == "123456789012345.12345")
        #expect(throws: QuantityError.tooManyDecimals("0.0000000000000000001")) { try Quantity(parsing: "0.0000000000000000001") }
        #expect(throws: QuantityError.notPositive("-1")) { try Quantity(parsing: "-1") }
        #expect(throws: QuantityError.notPositive("0")) { try Quantity(parsing: "0") }
        #expect(throws: QuantityError.malformed("1e3")) { try Quantity(parsing: "1e3") }
        #expect(throws: QuantityError.malformed(".5")) { try Quantity(parsing: ".5") }
        #expect(try Quantity(stored: "2.5") == Self.q("2.5"))
        #expect(ExactShares.prorate(147_185, part: Self.q("8").atto, whole: Self.q("15").atto) == 78_499)
        #expect(ExactShares.allocate(103_900, weights: [Self.q("5").atto, Self.q("3").atto]).reduce(0, +) == 103_900)
    }
}
