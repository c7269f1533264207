import Foundation
import LedgerlyCore
@testable import LedgerlyRates
import Testing

/// The price drop folder's CSV: one strict format, every refusal naming the line.
@Suite struct PriceDropFolderParserTests {
    @Test func readsTheDocumentedFormat() throws {
        let lines = try PriceDropFolderParser().parse(Fixture.data("prices-dropfolder.csv"))
        #expect(lines.map(\.description) == [
            "line 3: VWRL 118.42 USD as of 2026-11-20T00:00:00.000Z",
            "line 4: ibm 231.45 as of 2026-11-20T21:00:00.000Z",
            "line 5: GOLDFUND 12.5 USD",
        ])
    }

    @Test(arguments: [
        ("symbol,price,currency\nIBM,1,USD\n", "missing field 'asOf' at line 1"),
        ("symbol,price,currency,asOf,note\n", "unknown column 'note'"),
        ("IBM,231.45,USD,2026-11-20\n", "unknown column 'IBM'"),
        ("symbol,price,currency,asOf\n", "holds no rates"),
        ("symbol,price,currency,asOf\nIBM,231.45,USD\n", "at line 2: 3 values"),
        ("symbol,price,currency,asOf\nIBM,-231.45,USD,2026-11-20\n", "bad price for IBM at line 2: '-231.45': a price must be greater than zero"),
        ("symbol,price,currency,asOf\nIBM,0,USD,2026-11-20\n", "a price must be greater than zero"),
        ("symbol,price,currency,asOf\nIBM,\"1,185.50\",USD,2026-11-20\n", "at line 2: 5 values"),
        ("symbol,price,currency,asOf\nIBM,abc,USD,2026-11-20\n", "not a plain positive decimal"),
        ("symbol,price,currency,asOf\nIBM,1,U5D,2026-11-20\n", "'U5D' at line 2 is not a currency code"),
        ("symbol,price,currency,asOf\nIBM,1,USD,2026-02-30\n", "at line 2: asOf '2026-02-30'"),
        ("symbol,price,currency,asOf\nIBM,1,USD,2026-11-20 10:00\n", "at line 2: asOf"),
        ("symbol,price,currency,asOf\nIBM,1,USD,2026-11-20\nibm,2,USD,2026-11-20T00:00:00Z\n", "at line 3: ibm is given twice"),
        ("symbol,price,currency,asOf\n,1,USD,2026-11-20\n", "missing field 'symbol' at line 2"),
        ("[{\"symbol\":\"IBM\"}]", "this is JSON"),
    ])
    func refusesWithTheLine(csv: String, expected: String) {
        do {
            let lines = try PriceDropFolderParser().parse(Data(csv))
            Issue.record("expected a refusal, got \(lines)")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }
}
