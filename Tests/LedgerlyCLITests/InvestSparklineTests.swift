@testable import LedgerlyCLI
import Testing

/// The 72-hour sparkline beside a holding: lowest price to highest in eight blocks, none for
/// fewer than two prices.
@Suite struct InvestSparklineTests {
    @Test func pricesAreDrawnLowestToHighest() {
        #expect(Sparkline.render(["1", "8"]) == "▁█")
        #expect(Sparkline.render(["100", "101.5", "103", "104.5", "106", "107.5", "109", "110.5"]) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.render(["5.00", "5.00", "5.00"]) == "▄▄▄", "a flat series sits in the middle")
    }

    @Test func fewerThanTwoPricesDrawNothing() {
        #expect(Sparkline.render([]) == nil)
        #expect(Sparkline.render(["187.20"]) == nil)
        #expect(Sparkline.render(["1", "abc"]) == nil)
    }

    @Test func aLongSeriesIsSampledToTheWidthKeepingBothEnds() {
        let prices = (0..<300).map { String($0) }
        let line = Sparkline.render(prices, width: 24)
        #expect(line?.count == 24)
        #expect(line?.first == "▁")
        #expect(line?.last == "█")
    }

    @Test func decimalTextAddsWithTheLongerScale() {
        #expect(DecimalText.sum("1000.00", "1.00") == "1001.00")
        #expect(DecimalText.sum("1000", "1.5") == "1001.5")
        #expect(DecimalText.tenths("12.34") == 123)
        #expect(DecimalText.tenths("100.00") == 1_000)
        #expect(DecimalText.value("1e5") == nil)
    }
}
