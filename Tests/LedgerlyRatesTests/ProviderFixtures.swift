import Foundation
import LedgerlyCore
import LedgerlyRates
import Testing

/// Loads the recorded provider documents in `Fixtures/` (see its README for where each comes from).
enum Fixture {
    static func data(_ file: String) throws -> Data {
        let name = (file as NSString).deletingPathExtension
        let ext = (file as NSString).pathExtension
        let url = try #require(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"), "fixture \(file) is missing")
        return try Data(contentsOf: url)
    }

    static func text(_ file: String) throws -> String {
        String(decoding: try data(file), as: UTF8.self)
    }
}

/// The error a parse throws. Records an issue (and returns `nil`) when it returns rates instead:
/// a bad document must never yield a rate, not even a partial list.
func providerError(_ parse: () throws(ProviderError) -> [ProviderRate], sourceLocation: SourceLocation = #_sourceLocation) -> ProviderError? {
    do {
        let rates = try parse()
        Issue.record("expected a ProviderError, got \(rates.count) rates: \(rates.prefix(3))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The one rate for `quote` on `date` (or the only one for `quote` when `date` is nil).
func rate(_ rates: [ProviderRate], _ base: String, _ quote: String, on date: String? = nil,
          sourceLocation: SourceLocation = #_sourceLocation) -> ProviderRate? {
    let matches = rates.filter { $0.base == base && $0.quote == quote && (date == nil || $0.date?.description == date) }
    #expect(matches.count == 1, "\(matches.count) rates for \(base)/\(quote) on \(date ?? "any day")", sourceLocation: sourceLocation)
    return matches.first
}

extension Data {
    init(_ text: String) { self.init(text.utf8) }
}

/// `providerError` for a fixture file.
func providerError(file: String, _ parse: (Data) throws(ProviderError) -> [ProviderRate],
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> ProviderError? {
    let data = try Fixture.data(file)
    return providerError({ () throws(ProviderError) in try parse(data) }, sourceLocation: sourceLocation)
}
