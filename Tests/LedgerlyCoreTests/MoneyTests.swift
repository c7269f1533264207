import LedgerlyCore
import Testing

@Suite struct MoneyTests {
    static let eur = try! Currency(code: "EUR")
    static let jpy = try! Currency(code: "JPY")
    static let bhd = try! Currency(code: "BHD")

    @Test(arguments: [
        ("12.50", "EUR", Int64(1250)), ("12.5", "EUR", 1250), ("0", "EUR", 0), ("-3", "EUR", -300), ("0.01", "EUR", 1),
        ("12.500", "EUR", 1250), ("5000", "JPY", 5000), ("5000.0", "JPY", 5000), ("1.234", "BHD", 1234),
        ("92233720368547758.07", "EUR", Int64.max),
    ])
    func parsesExactDecimals(text: String, code: String, minor: Int64) throws {
        let money = try Money(parsing: text, currency: Currency(code: code))
        #expect(money.minorUnits == minor)
    }

    @Test(arguments: ["1e3", "NaN", "Infinity", "", "-", ".5", "5.", "1,5", "+5", " 5", "5 ", "0x10", "١٢", "1.2.3", "--1", "1\u{301}", "5\u{FE0F}\u{20E3}", "1.0\u{301}", "１２"])
    func refusesWhatIsNotAPlainDecimal(text: String) {
        #expect(throws: MoneyError.malformedAmount(text)) { try Money(parsing: text, currency: Self.eur) }
    }

    @Test func refusesMoreDecimalsThanTheCurrencyHas() {
        #expect(throws: MoneyError.tooManyDecimals(amount: "12.345", currency: "EUR", allowed: 2)) { try Money(parsing: "12.345", currency: Self.eur) }
        #expect(throws: MoneyError.tooManyDecimals(amount: "1.5", currency: "JPY", allowed: 0)) { try Money(parsing: "1.5", currency: Self.jpy) }
    }

    @Test func refusesAmountsBeyondSixtyFourBits() {
        #expect(throws: MoneyError.outOfRange("92233720368547758.08")) { try Money(parsing: "92233720368547758.08", currency: Self.eur) }
    }

    @Test(arguments: [(Int64(1250), 2, "12.50"), (-5, 2, "-0.05"), (5000, 0, "5000"), (1234, 3, "1.234"), (0, 2, "0.00"), (Int64.min, 2, "-92233720368547758.08")])
    func formatsWithExactlyTheExponentsDecimals(minor: Int64, exponent: Int, text: String) {
        #expect(Money.format(minorUnits: minor, exponent: exponent) == text)
    }

    /// The byte-buffer `format` (D230) against the `String` one it replaced, on edge values and
    /// seeded random ones, at every exponent up to 18 (and a negative one, which means none).
    @Test func formatsAsTheStringVersionDid() {
        func reference(_ minorUnits: Int64, _ exponent: Int) -> String {
            var digits = String(minorUnits.magnitude)
            if exponent > 0 {
                if digits.count <= exponent { digits = String(repeating: "0", count: exponent - digits.count + 1) + digits }
                digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -exponent))
            }
            return minorUnits < 0 ? "-" + digits : digits
        }
        var generator = SeededGenerator(seed: 16)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 101, Int64.max, Int64.min, Int64.min + 1]
        for _ in 0..<2_000 {
            let digits = Int64(generator.next() % 19)
            var magnitude: Int64 = 1
            for _ in 0..<digits { magnitude *= 10 }
            let value = Int64(bitPattern: generator.next()) % magnitude
            values.append(value)
        }
        for exponent in -1...18 {
            for value in values {
                #expect(Money.format(minorUnits: value, exponent: exponent) == reference(value, exponent), "\(value) at \(exponent)")
            }
        }
    }

    @Test func roundTripsThroughText() throws {
        for minor: Int64 in [0, 1, -1, 99, 100, 123_456_789, -987_654_321] {
            for currency in [Self.eur, Self.jpy, Self.bhd] {
                let money = Money(minorUnits: minor, currency: currency)
                #expect(try Money(parsing: money.decimalString, currency: currency) == money)
            }
        }
    }
}

@Suite struct CurrencyTests {
    @Test func isoCodesTakeTheirExponent() throws {
        #expect(try Currency(code: "eur").code == "EUR")
        #expect(try Currency(code: "JPY").exponent == 0)
        #expect(try Currency(code: "KWD").exponent == 3)
        #expect(try Currency(code: "CLF").exponent == 4)
        #expect(try Currency(code: "USD").isISO)
    }

    @Test func customCodesAreLettersUpToTwenty() throws {
        #expect(try Currency(code: "GOLDGRAMS").exponent == CurrencyCatalog.customExponent)
        #expect(try !Currency(code: "ABCDEFGHIJKLMNOPQRST").isISO)
        for bad in ["", "EU1", "E-R", "ABCDEFGHIJKLMNOPQRSTU", "€", "ÉUR"] {
            #expect(throws: MoneyError.invalidCurrencyCode(bad)) { try Currency(code: bad) }
        }
    }

    @Test func catalogSearchFindsByCodeAndName() {
        #expect(CurrencyCatalog.search("yen").map(\.code) == ["JPY"])
        #expect(CurrencyCatalog.search("jpy").first?.code == "JPY")
        #expect(CurrencyCatalog.search("dollar").count > 10)
        #expect(Set(CurrencyCatalog.entries.map(\.code)).count == CurrencyCatalog.entries.count)
    }
}

@Suite struct LedgerDateTests {
    @Test func parsesRealDatesOnly() {
        #expect(LedgerDate("2026-11-21")?.description == "2026-11-21")
        #expect(LedgerDate("2024-02-29") != nil)
        for bad in ["2025-02-29", "+202-01-01", "2026-1١-01", "2026-13-01", "2026-11-31", "26-11-21", "2026-1-5", "2026/11/21", "", "2026-11-21T00:00"] {
            #expect(LedgerDate(bad) == nil, "\(bad)")
        }
        #expect(LedgerDate("2026-01-31")! < LedgerDate("2026-02-01")!)
    }
}
