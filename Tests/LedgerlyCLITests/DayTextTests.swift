import LedgerlyCore
@testable import LedgerlyCLI
import Testing

/// Days as people type them (`DayText`), on a fixed today (2026-03-31, the end of a long month).
@Suite struct DayTextTests {
    static let today = LedgerDate("2026-03-31")!
    static let plain = DayText(today: today, order: nil)

    @Test(arguments: [
        ("2026-11-23", "2026-11-23"), ("2026/11/23", "2026-11-23"), ("2026.11.23", "2026-11-23"), ("2026/1/5", "2026-01-05"),
        ("today", "2026-03-31"), ("Yesterday", "2026-03-30"), ("tomorrow", "2026-04-01"), (" today ", "2026-03-31"),
        ("-3d", "2026-03-28"), ("-2w", "2026-03-17"), ("+1d", "2026-04-01"), ("-0d", "2026-03-31"),
        ("-1m", "2026-02-28"), ("-1y", "2025-03-31"), ("-13m", "2025-02-28"),
    ])
    func daysEveryLocaleReads(text: String, day: String) throws {
        #expect(try Self.plain.day(text).description == day)
    }

    @Test func yearLastDaysFollowTheLocale() throws {
        let dayFirst = DayText(today: Self.today, order: .dayFirst)
        let monthFirst = DayText(today: Self.today, order: .monthFirst)
        #expect(try dayFirst.day("23/11/2026").description == "2026-11-23")
        #expect(try dayFirst.day("23.11.2026").description == "2026-11-23")
        #expect(try dayFirst.day("5-1-2026").description == "2026-01-05")
        #expect(try monthFirst.day("11/23/2026").description == "2026-11-23")
        #expect(try monthFirst.day("1/5/2026").description == "2026-01-05")
        #expect(throws: DayTextError.noSuchDay("11/23/2026")) { try dayFirst.day("11/23/2026") }
        // No locale: never guessed, even where only one reading is a day.
        #expect(throws: DayTextError.ambiguous("23/11/2026")) { try Self.plain.day("23/11/2026") }
    }

    @Test(arguments: ["", "2026-11", "23-11", "next week", "-3", "-3q", "3d", "2026-11-23x", "2026-11/23", "12026-01-01", "-d"])
    func unreadableTextIsRefused(text: String) {
        #expect(throws: DayTextError.unreadable(text)) { try Self.plain.day(text) }
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "0000-01-01"])
    func daysNotOnTheCalendarAreRefused(text: String) {
        #expect(throws: DayTextError.noSuchDay(text)) { try Self.plain.day(text) }
    }

    @Test func rangeBoundsTakeMonths() throws {
        #expect(try Self.plain.rangeStart("2026-02").description == "2026-02-01")
        #expect(try Self.plain.rangeEnd("2026-02").description == "2026-02-28")
        #expect(try Self.plain.rangeEnd("2024/2").description == "2024-02-29")
        #expect(try Self.plain.rangeStart("-1w").description == "2026-03-24")
        #expect(try Self.plain.month("2026-11-23") == "2026-11")
        #expect(try Self.plain.month("2026-11") == "2026-11")
        #expect(try Self.plain.month("today") == "2026-03")
        #expect(throws: DayTextError.unreadable("2026-13")) { try Self.plain.month("2026-13") }
    }

    @Test func theLocaleIsReadAsTheCLibraryReadsIt() {
        #expect(DayText.order(environment: ["LANG": "de_DE.UTF-8"]) == .dayFirst)
        #expect(DayText.order(environment: ["LANG": "en_US.UTF-8"]) == .monthFirst)
        #expect(DayText.order(environment: ["LANG": "en_US.UTF-8", "LC_TIME": "en_GB.UTF-8"]) == .dayFirst)
        #expect(DayText.order(environment: ["LC_ALL": "C", "LC_TIME": "en_GB.UTF-8"]) == nil)
        #expect(DayText.order(environment: ["LC_ALL": "", "LANG": "fr_FR@euro"]) == .dayFirst)
        #expect(DayText.order(environment: ["LANG": "C.UTF-8"]) == nil)
        #expect(DayText.order(environment: ["LANG": "POSIX"]) == nil)
        #expect(DayText.order(environment: [:]) == nil)
    }
}
