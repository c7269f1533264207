import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// Requests spent of a provider's daily allowance (Alpha Vantage's free tier: 25 a UTC day).
///
/// A request counts when it is sent, whatever comes back: the provider counts it too. The
/// count is reported to the store with the provider's status after each refresh and read back
/// when the rates service starts (D153), so a restart does not hand out the day's requests
/// again; a new UTC day starts from zero.
struct DailyQuota: Sendable, Hashable {
    let limit: Int
    /// The UTC day `used` counts ("2026-11-24").
    private(set) var day: String
    private(set) var used: Int

    init(limit: Int, day: String, used: Int = 0) {
        self.limit = limit
        self.day = day
        self.used = min(max(used, 0), limit)
    }

    /// The UTC day of `date`, as the protocol writes days.
    static func day(of date: Date) -> String {
        String(Timestamp.string(from: date).prefix(10))
    }

    /// The next UTC midnight after `date`: when a used-up quota is whole again.
    static func nextDay(after date: Date) -> Date {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded(.down))
        let next = (milliseconds / Timestamp.millisecondsPerDay + 1) * Timestamp.millisecondsPerDay
        return Date(timeIntervalSince1970: TimeInterval(next / 1_000))
    }

    /// Requests left today, after moving to `now`'s day (a new day starts at zero).
    mutating func remaining(at now: Date) -> Int {
        roll(to: now)
        return limit - used
    }

    /// Counts one request sent at `now`.
    mutating func spend(at now: Date) {
        roll(to: now)
        used = min(used + 1, limit)
    }

    /// The provider said the day's allowance is gone (its count and ours differ, e.g. another
    /// program uses the same key): nothing more is asked today.
    mutating func exhaust(at now: Date) {
        roll(to: now)
        used = limit
    }

    /// Picks up the count a previous run reported, when it is for the same day.
    mutating func resume(day reportedDay: String?, used reportedUsed: Int?, at now: Date) {
        roll(to: now)
        guard let reportedDay, let reportedUsed, reportedDay == day else { return }
        used = min(max(used, reportedUsed, 0), limit)
    }

    private mutating func roll(to now: Date) {
        let today = Self.day(of: now)
        if today != day {
            day = today
            used = 0
        }
    }
}
