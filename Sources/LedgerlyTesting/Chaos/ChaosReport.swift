import Foundation

/// What a chaos run saw; `passed` when nothing acknowledged was lost or doubled and every check held.
public struct ChaosReport: Sendable {
    public var kills = 0
    public var killsByService: [String: Int] = [:]
    public var acknowledged = 0
    /// Acknowledged writes missing from the ledger.
    public var lost = 0
    /// Transactions stored more than once for one write (by its unique note), or stored without
    /// an acknowledgement.
    public var duplicated = 0
    /// Budget thresholds the spending implies that have no alert in the alert log.
    public var alertsMissing = 0
    /// Alert log entries for the same budget, month and threshold beyond the first.
    public var alertsDoubled = 0
    /// From a killed service's restart to its first answer, in milliseconds.
    public var restartToFirstAnswerMilliseconds: [String: [Int]] = [:]
    /// The wallet's maintained balance equals its starting balance plus its stored transactions.
    public var balanceMatches = false
    /// `PRAGMA integrity_check` of a backup taken at the end.
    public var integrity = ""
    /// Events the rates and alerts services had not handled when the run ended.
    public var lag: [String: Int64] = [:]
    public var seconds = 0.0

    public var passed: Bool {
        lost == 0 && duplicated == 0 && alertsMissing == 0 && alertsDoubled == 0 && balanceMatches && integrity == "ok" && lag.values.allSatisfy { $0 == 0 }
    }

    /// The report as lines for a terminal.
    public var lines: [String] {
        var lines = [
            "kills: \(kills) (" + killsByService.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")",
            "acknowledged writes: \(acknowledged)",
            "lost: \(lost)",
            "duplicated: \(duplicated)",
            "alerts missing: \(alertsMissing), doubled: \(alertsDoubled)",
            "balance equals stored transactions: \(balanceMatches ? "yes" : "NO")",
            "integrity_check of a backup taken at the end: \(integrity)",
            "lag at the end: " + lag.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
        ]
        for (service, samples) in restartToFirstAnswerMilliseconds.sorted(by: { $0.key < $1.key }) where !samples.isEmpty {
            let sorted = samples.sorted()
            lines.append("restart → first answer, \(service): median \(sorted[sorted.count / 2]) ms, max \(sorted.last!) ms (\(sorted.count) restarts)")
        }
        lines.append(String(format: "took %.1f s; %@", seconds, passed ? "PASSED" : "FAILED"))
        return lines
    }
}
