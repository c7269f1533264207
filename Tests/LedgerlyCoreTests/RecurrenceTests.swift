import LedgerlyCore
import Testing

@Suite struct RecurrenceTests {
    static func dates(_ unit: Recurrence.Unit, every: Int = 1, from start: String, count: Int) -> [String] {
        let recurrence = Recurrence(unit: unit, every: every, start: LedgerDate(start)!)
        return (0..<count).map { recurrence.occurrence($0)!.description }
    }

    @Test func monthlyOnThe31stFallsOnEachMonthsLastDayAndComesBack() {
        #expect(Self.dates(.month, from: "2026-01-31", count: 4) == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        #expect(Self.dates(.month, from: "2027-12-31", count: 3) == ["2027-12-31", "2028-01-31", "2028-02-29"])
    }

    @Test func daysWeeksAndYearsCrossMonthAndLeapBoundaries() {
        #expect(Self.dates(.day, every: 10, from: "2028-02-25", count: 3) == ["2028-02-25", "2028-03-06", "2028-03-16"])
        #expect(Self.dates(.week, every: 2, from: "2026-12-24", count: 3) == ["2026-12-24", "2027-01-07", "2027-01-21"])
        #expect(Self.dates(.year, from: "2028-02-29", count: 2) == ["2028-02-29", "2029-02-28"])
        #expect(Self.dates(.month, every: 3, from: "2026-11-15", count: 3) == ["2026-11-15", "2027-02-15", "2027-05-15"])
    }

    @Test func dayNumbersRoundTripForEveryDayOfFourHundredYears() {
        var date = LedgerDate("2000-01-01")!
        var outOfOrder = 0
        for _ in 0..<146_097 {
            let next = date.adding(days: 1)!
            if !(next > date) || LedgerDate(next.description) != next { outOfOrder += 1 }
            date = next
        }
        #expect(outOfOrder == 0)
        #expect(date.description == "2400-01-01")
    }

    @Test func farFutureEndsInsteadOfOverflowing() {
        #expect(Recurrence(unit: .year, every: 1_000, start: LedgerDate("2026-01-01")!).occurrence(10) == nil)
        #expect(Recurrence(unit: .day, every: 1, start: LedgerDate("2026-01-01")!).occurrence(Int.max) == nil)
    }
}

@Suite struct LedgerMonthTests {
    @Test func monthsStepAcrossYearsAndKnowTheirLastDay() {
        #expect(LedgerMonth.next("2026-12") == "2027-01")
        #expect(LedgerMonth.previous("2027-01") == "2026-12")
        #expect(LedgerMonth.next("2026-09") == "2026-10")
        #expect(LedgerMonth.lastDay(of: "2028-02") == "2028-02-29")
        #expect(LedgerMonth.lastDay(of: "2026-11") == "2026-11-30")
    }
}
