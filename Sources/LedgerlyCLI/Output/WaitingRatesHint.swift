import LedgerlyCore
import LedgerlyProtocol

/// The lines printed under a report or budget status when some transactions are not counted yet
/// because their base amount waits for a rate: which pair, from which day, and what helps in the
/// ledger's exchange mode (a refresh does nothing for a pair no feed has, nor in manual mode).
enum WaitingRatesHint {
    static func lines(uncounted: Int, gateway: Gateway) throws -> [String] {
        guard uncounted > 0 else { return [] }
        let waiting = try gateway.call(RatesWaitingRequest())
        let mode = try gateway.call(SettingsGetRequest()).exchangeMode
        var lines = ["\(uncounted) transaction(s) here wait for an exchange rate and are not counted yet:"]
        for pair in waiting.pairs {
            let span = pair.earliestDate == pair.latestDate ? "dated \(pair.earliestDate)" : "dated \(pair.earliestDate) to \(pair.latestDate)"
            lines.append("  in the whole ledger, \(pair.count) in \(pair.from) \(span) need a \(pair.from)→\(pair.to) rate in force on \(pair.earliestDate):")
            lines.append("    ledgerly rates set \(pair.from) \(pair.to) RATE --at \(pair.earliestDate)")
        }
        if mode != .manual {
            lines.append("  (or `ledgerly rates refresh`, if a configured provider of profile '\(waiting.profile)' publishes the pair for those days)")
        }
        return lines
    }
}
