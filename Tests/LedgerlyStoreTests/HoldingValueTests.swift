import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// `HoldingValue` gives `TradeRules.value`'s figure exactly, or leaves it to it.
@Suite struct HoldingValueTests {
    @Test func theIntegerValueIsTheDecimalOne() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 11) % bound
        }
        var checked = 0
        for _ in 0..<20_000 {
            let whole = next(4) == 0 ? next(1_000_000_000) : next(10_000)
            let decimals = Int(next(19))
            let fraction = decimals == 0 ? "" : "." + String(String(next(UInt64.max)).suffix(decimals)).padding(toLength: decimals, withPad: "7", startingAt: 0)
            guard let quantity = try? Quantity(stored: "\(whole)\(fraction)"), quantity.atto > 0 else { continue }
            let priceDecimals = Int(next(9))
            let price = "\(next(next(2) == 0 ? 1_000 : 10_000_000))" + (priceDecimals == 0 ? "" : "." + String(repeating: "0", count: Int(next(3))) + "\(next(100_000) + 1)".prefix(priceDecimals))
            for exponent in [0, 2, 3] {
                let currency = try Currency(code: exponent == 0 ? "JPY" : exponent == 2 ? "EUR" : "KWD")
                guard let fast = HoldingValue.value(quantity, price: price, exponent: exponent) else { continue }
                let rate = try ExchangeRate(stored: price)
                #expect(fast == TradeRules.value(quantity, rate, currency: currency), "\(quantity) × \(price) in \(currency.code)")
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    @Test func theIntegerConversionIsTheConvertersOne() throws {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 11) % bound
        }
        let currencies = try ["JPY", "EUR", "USD", "KWD"].map { try Currency(code: $0) }
        var checked = 0
        for _ in 0..<20_000 {
            let amount = Int64(next(4) == 0 ? next(1_000_000_000_000_000) : next(10_000_000))
            // Rates as the store keeps them: an effective rate to 18 digits, or a short quote.
            let raw = next(2) == 0 ? Decimal(Int(next(1_000) + 1)) / Decimal(Int(next(100_000) + 1))
                                   : Decimal(string: "\(next(200)).\(next(100_000) + 1)0", locale: Locale(identifier: "en_US_POSIX")) ?? 1
            let rounded = try ExchangeRate(stored: Self.kept(raw))
            let from = currencies[Int(next(4))], to = currencies[Int(next(4))]
            guard let fast = HoldingValue.convert(amount, rate: rounded.decimalString, fromExponent: from.exponent, toExponent: to.exponent) else { continue }
            #expect(fast == (try TradeRules.convert(amount, from: from, to: to, rate: rounded, field: .wholeBody)), "\(amount) × \(rounded) \(from.code)→\(to.code)")
            checked += 1
        }
        #expect(checked > 10_000)
    }

    /// A rate kept to 18 significant digits, as `TradeRules.rate` keeps an effective one.
    static func kept(_ rate: Decimal) -> String {
        var product = rate
        var kept = Decimal()
        let scale = ExchangeRate.maximumDigits - 1 - Int(product.exponent) - (product.significand.description.count - 1)
        NSDecimalRound(&kept, &product, scale, .bankers)
        return kept.description
    }

    @Test func halvesRoundToEven() throws {
        let eur = 2
        #expect(HoldingValue.value(try Quantity(stored: "1"), price: "0.005", exponent: eur) == .some(0))
        #expect(HoldingValue.value(try Quantity(stored: "1"), price: "0.015", exponent: eur) == .some(2))
        #expect(HoldingValue.value(try Quantity(stored: "3"), price: "0.0050001", exponent: eur) == .some(2))
        #expect(HoldingValue.value(try Quantity(stored: "1000000000000"), price: "999999", exponent: eur) == .some(nil))
    }

    @Test func aStoredQuantityReadsAsQuantityReadsIt() throws {
        for text in ["0", "10", "0.5", "38.7", "-2.25", "5.", "007.10", "123456789012345.123456789012345678", "99999999999999999999.999999999999999999"] {
            #expect(HoldingValue.quantity(stored: text) == (try Quantity(stored: text)), "\(text)")
        }
        for text in ["", ".5", "-", "1.2.3", "+5", "1e3", " 1", "1.1234567890123456789", "123456789012345678901"] {
            #expect(HoldingValue.quantity(stored: text) == nil, "\(text)")
        }
    }

    @Test func anythingButPlainDigitsIsLeftToDecimal() throws {
        let one = try Quantity(stored: "1")
        for text in ["", ".5", "5.", "1e3", "-1", "1.2.3", "0", "0.000", " 1", String(repeating: "9", count: 31)] {
            #expect(HoldingValue.value(one, price: text, exponent: 2) == nil, "\(text)")
        }
    }
}
