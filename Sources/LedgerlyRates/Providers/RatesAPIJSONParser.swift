import Foundation
import LedgerlyCore

/// JSON rates APIs of the Frankfurter / Open Exchange Rates kind, in their three shapes:
///
/// - Frankfurter latest or one day: `{"amount":1.0,"base":"EUR","date":"2026-10-30","rates":{"USD":1.1172,…}}`
/// - Open Exchange Rates: `{"disclaimer":…,"license":…,"timestamp":1793376000,"base":"USD","rates":{"EUR":0.895095,…}}`
///   (`timestamp` is Unix seconds; it becomes `ProviderRate.timestamp` in ISO 8601 and its UTC day
///   the `date`).
/// - Frankfurter time series: `{"base":"EUR","start_date":…,"end_date":…,"rates":{"2026-10-29":{"USD":1.113},…}}`
///
/// and their error bodies: `{"error":true,"status":429,"message":"…","description":"…"}` (Open
/// Exchange Rates) and `{"message":"not found"}` (Frankfurter), reported as `.providerReported`.
///
/// Rates are read as JSON numbers decoded exactly to `Decimal`. Choices, explicitly:
/// - A rate that is a string, `null` or anything but a number throws `.badRate`: these APIs send
///   numbers, so anything else means the format changed under us.
/// - Zero, negative or out-of-range rates throw `.badRate`; no partial result is returned.
/// - `amount` other than 1 (Frankfurter's `?amount=10`) throws `.notFormat`: the rates would be
///   for 10 units, and dividing would round; ask the API for 1 instead.
/// - The base's own entry (Open Exchange Rates sends `"USD":1` with base USD) is skipped: a rate
///   from a currency to itself says nothing.
/// Output is sorted by day, then by quote code, so it is the same on every run.
public struct RatesAPIJSONParser: Sendable {
    public init() {}

    public func parse(_ data: Data) throws(ProviderError) -> [ProviderRate] {
        let format = ProviderError.Format.ratesAPI
        let json = try ProviderJSON.decode(ProviderDocument.text(data, format: format), format)
        guard case .object = json else { throw .notFormat(format, reason: "the top level is \(json.kind), expected an object") }
        try Self.rejectErrorBody(json)

        guard let baseValue = json["base"] else { throw .missingField(format, field: "base", at: nil) }
        guard let baseText = baseValue.string else { throw .malformed(format, detail: "'base' is \(baseValue.kind), expected a currency code", at: .path("base")) }
        let base = try ProviderFields.currency(baseText, format, at: .path("base"))
        if let amount = json["amount"] {
            guard amount.number == 1 else {
                throw .notFormat(format, reason: "the rates are for an amount of \(amount.text) \(base), not 1 (request amount=1)")
            }
        }
        guard let ratesValue = json["rates"] else { throw .missingField(format, field: "rates", at: nil) }
        guard case .object(let members) = ratesValue else {
            throw .malformed(format, detail: "'rates' is \(ratesValue.kind), expected an object", at: .path("rates"))
        }

        var result: [ProviderRate] = []
        if members.values.contains(where: { if case .object = $0 { true } else { false } }) {
            // Time series: day → {currency: rate}.
            for (day, value) in members.sorted(by: { $0.key < $1.key }) {
                let date = try ProviderFields.date(day, format, at: .path("rates.\(day)"))
                guard case .object(let dayRates) = value else {
                    throw .malformed(format, detail: "the day is \(value.kind), expected an object of rates", at: .path("rates.\(day)"))
                }
                result += try Self.rates(dayRates, base: base, date: date, timestamp: nil, path: "rates.\(day)")
            }
        } else {
            var date: LedgerDate?
            var timestamp: String?
            if let stamp = json["timestamp"] {
                guard let seconds = stamp.number else { throw .badDate(format, value: stamp.text, at: .path("timestamp")) }
                let time = try ProviderFields.unixTime(seconds, format, at: .path("timestamp"))
                (timestamp, date) = (time.timestamp, time.date)
            }
            if let day = json["date"] {
                guard let text = day.string else { throw .badDate(format, value: day.text, at: .path("date")) }
                date = try ProviderFields.date(text, format, at: .path("date"))
            }
            result = try Self.rates(members, base: base, date: date, timestamp: timestamp, path: "rates")
        }
        guard !result.isEmpty else { throw .noRates(format) }
        return result
    }

    private static func rates(_ members: [String: ProviderJSON], base: String, date: LedgerDate?, timestamp: String?,
                              path: String) throws(ProviderError) -> [ProviderRate] {
        let format = ProviderError.Format.ratesAPI
        var result: [ProviderRate] = []
        for (code, value) in members.sorted(by: { $0.key < $1.key }) {
            let location = ProviderError.Location.path("\(path).\(code)")
            let quote = try ProviderFields.currency(code, format, at: location)
            guard quote != base else { continue }
            let pair = "\(base)/\(quote)"
            guard let number = value.number else {
                throw .badRate(format, pair: pair, value: value.text, at: location, reason: .malformed(value.text))
            }
            let rate = try ProviderFields.rate(number, pair: pair, format, at: location)
            result.append(ProviderRate(base: base, quote: quote, rate: rate, date: date, timestamp: timestamp))
        }
        return result
    }

    /// Open Exchange Rates' `{"error":true,…}` and Frankfurter's `{"message":…}` (a message and no
    /// rates) become `.providerReported` with the status and the provider's own words.
    private static func rejectErrorBody(_ json: ProviderJSON) throws(ProviderError) {
        let flagged = json["error"] == .bool(true)
        guard flagged || (json["rates"] == nil && (json["message"] != nil || json["status"] != nil)) else { return }
        let status = json["status"]?.number.flatMap { Int($0.description) }
        let words = [json["message"], json["description"]].compactMap { $0?.string }.filter { !$0.isEmpty }
        throw .providerReported(.ratesAPI, status: status, message: words.isEmpty ? "no message" : words.joined(separator: ": "))
    }
}
