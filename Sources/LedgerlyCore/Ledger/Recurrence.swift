/// The dates of a repeating event: every `every` days, weeks, months or years from `start`.
///
/// Occurrence n is computed from the start, never from occurrence n-1, so a monthly event on the
/// 31st falls on each month's last day and comes back to the 31st (Jan 31, Feb 28, Mar 31), and
/// a yearly one on Feb 29 falls on Feb 28 in common years.
public struct Recurrence: Hashable, Sendable {
    public enum Unit: String, Sendable { case day, week, month, year }

    public let unit: Unit
    public let every: Int
    public let start: LedgerDate

    public init(unit: Unit, every: Int, start: LedgerDate) {
        self.unit = unit
        self.every = max(1, every)
        self.start = start
    }

    /// The n-th occurrence (0 is `start`); nil past year 9999.
    public func occurrence(_ n: Int) -> LedgerDate? {
        let (steps, overflow) = n.multipliedReportingOverflow(by: every)
        guard !overflow, steps >= 0 else { return nil }
        switch unit {
        case .day: return start.adding(days: steps)
        case .week:
            let (days, overflow) = steps.multipliedReportingOverflow(by: 7)
            return overflow ? nil : start.adding(days: days)
        case .month: return start.adding(months: steps)
        case .year:
            let (months, overflow) = steps.multipliedReportingOverflow(by: 12)
            return overflow ? nil : start.adding(months: months)
        }
    }
}

extension LedgerDate {
    /// Days since 0001-01-01 in the proleptic Gregorian calendar, and back.
    public var dayNumber: Int {
        let y = year - 1
        let leapDays = y / 4 - y / 100 + y / 400
        var days = y * 365 + leapDays
        for m in 1..<month { days += LedgerDate.daysIn(month: m, year: year) }
        return days + day - 1
    }

    init?(dayNumber: Int) {
        // 3_652_058 is 9999-12-31: beyond it there is no date, and the year search would spin.
        guard (0...3_652_058).contains(dayNumber) else { return nil }
        var year = dayNumber / 366 + 1
        func start(of year: Int) -> Int { let y = year - 1; return y * 365 + y / 4 - y / 100 + y / 400 }
        while start(of: year + 1) <= dayNumber { year += 1 }
        var rest = dayNumber - start(of: year)
        var month = 1
        while rest >= LedgerDate.daysIn(month: month, year: year) {
            rest -= LedgerDate.daysIn(month: month, year: year)
            month += 1
        }
        guard year <= 9999 else { return nil }
        self.init(String(format4(year) + "-" + format2(month) + "-" + format2(rest + 1)))
    }

    public func adding(days: Int) -> LedgerDate? {
        let (target, overflow) = dayNumber.addingReportingOverflow(days)
        return overflow ? nil : LedgerDate(dayNumber: target)
    }

    /// The same day `months` later, or that month's last day when it is shorter.
    public func adding(months: Int) -> LedgerDate? {
        let (total, overflow) = (year * 12 + month - 1).addingReportingOverflow(months)
        guard !overflow, total >= 12 else { return nil }
        let newYear = total / 12, newMonth = total % 12 + 1
        guard newYear <= 9999 else { return nil }
        return LedgerDate(format4(newYear) + "-" + format2(newMonth) + "-" + format2(min(day, LedgerDate.daysIn(month: newMonth, year: newYear))))
    }
}

private func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
private func format4(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }
