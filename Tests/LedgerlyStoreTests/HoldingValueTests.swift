import LedgerlyCore
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

    @Test func halvesRoundToEven() throws {
        let eur = 2
        #expect(HoldingValue.value(try Quantity(stored: "1"), price: "0.005", exponent: eur) == .some(0))
        #expect(HoldingValue.value(try Quantity(stored: "1"), price: "0.015", exponent: eur) == .some(2))
        #expect(HoldingValue.value(try Quantity(stored: "3"), price: "0.0050001", exponent: eur) == .some(2))
        #expect(HoldingValue.value(try Quantity(stored: "1000000000000"), price: "999999", exponent: eur) == .some(nil))
    }

    @Test func anythingButPlainDigitsIsLeftToDecimal() throws {
        let one = try Quantity(stored: "1")
        for text in ["", ".5", "5.", "1e3", "-1", "1.2.3", "0", "0.000", " 1", String(repeating: "9", count: 31)] {
            #expect(HoldingValue.value(one, price: text, exponent: 2) == nil, "\(text)")
        }
    }
}
