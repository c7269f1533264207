import LedgerlyCore
import LedgerlyProtocol

/// The occurrences of a recurring transaction that follow its next run, by the same calendar rule
/// the store posts them by (`Recurrence`: occurrence n counted from the start, so a monthly one on
/// the 31st keeps coming back to the 31st), never past the end date (D582).
enum RecurringSchedule {
    static func recurrence(_ record: RecurringRecord) -> Recurrence? {
        guard let start = LedgerDate(record.startDate) else { return nil }
        let unit: Recurrence.Unit = switch record.frequency {
        case .daily: .day
        case .weekly: .week
        case .monthly: .month
        case .yearly: .year
        }
        return Recurrence(unit: unit, every: record.every, start: start)
    }

    /// Up to `count` occurrences after `record.nextRun`, oldest first; none once it has ended.
    static func following(_ record: RecurringRecord, count: Int) -> [String] {
        guard count > 0, let next = record.nextRun.flatMap(LedgerDate.init), let rule = recurrence(record) else { return [] }
        // Start from an index no later than the next run's (a lower bound: months of 28 days or
        // more, years of 365 days or more), then step forward: a few steps, whatever the start.
        let days = max(0, next.dayNumber - rule.start.dayNumber)
        let daysPerStep = switch rule.unit {
        case .day: 1
        case .week: 7
        case .month: 31
        case .year: 366
        }
        var index = days / (daysPerStep * rule.every)
        var found: [String] = []
        while found.count < count, let date = rule.occurrence(index) {
            if let end = record.endDate, date.description > end { break }
            if date > next { found.append(date.description) }
            index += 1
        }
        return found
    }
}
