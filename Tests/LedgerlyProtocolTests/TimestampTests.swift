import Foundation
import LedgerlyProtocol
import Testing

@Suite struct TimestampTests {
    @Test func everyMillisecondReadsBackExactly() throws {
        for millisecond in 0..<1_000 {
            let text = "2026-11-21T14:10:42." + String(repeating: "0", count: 3 - String(millisecond).count) + String(millisecond) + "Z"
            #expect(Timestamp.string(from: try #require(Timestamp.parse(text))) == text)
        }
        #expect(Timestamp.string(from: try #require(Timestamp.parse("1999-01-04T00:00:00Z"))) == "1999-01-04T00:00:00.000Z")
    }

    @Test func aDateAloneMeansTheEndOfThatDay() throws {
        #expect(Timestamp.string(from: try #require(Timestamp.parse("2026-10-30"))) == "2026-10-30T23:59:59.999Z")
    }
}
