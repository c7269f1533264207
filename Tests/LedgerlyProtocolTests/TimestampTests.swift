import Foundation
import LedgerlyCore
import LedgerlyProtocol
import Testing

@Suite struct TimestampTests {
    @Test func everyMillisecondReadsBackExactly() throws {
        for millisecond in 0..<1_000 {
            let text = "2026-11-21T14:10:42." + String(repeating: "0", count: 3 - String(millisecond).count) + String(millisecond) + "Z"
            #expect(Timestamp.string(from: try #require(Timestamp.parse(text))) == text)
        }
        #expect(Timestamp.string(from: try #require(Timestamp.parse("1999-01-04T00:00:00Z"))) == "1999-01-04T00:00:00.000Z")
    }

    @Test func aDateAloneMeansTheEndOfThatDay() throws {
        #expect(Timestamp.string(from: try #require(Timestamp.parse("2026-10-30"))) == "2026-10-30T23:59:59.999Z")
    }
}

/// The strict reader (docs/decisions.md D87): every time in a request goes through it.
@Suite struct StrictTimestampTests {
    @Test(arguments: [
        ("2024-02-29", "2024-02-29T23:59:59.999Z"),  // a leap day
        ("2000-02-29", "2000-02-29T23:59:59.999Z"),
        ("2026-10-30T15:00:00Z", "2026-10-30T15:00:00.000Z"),
        ("2026-10-30T15:00:00.5Z", "2026-10-30T15:00:00.500Z"),
        ("2026-10-30T15:00:00.12Z", "2026-10-30T15:00:00.120Z"),
        ("2026-10-30T15:00:00.123Z", "2026-10-30T15:00:00.123Z"),
        ("2026-10-30T15:00:00.123999999Z", "2026-10-30T15:00:00.123Z"),  // truncated, never rounded
        ("2026-10-30T23:59:59.999Z", "2026-10-30T23:59:59.999Z"),
        ("2026-10-30T00:00:00+02:00", "2026-10-29T22:00:00.000Z"),
        ("2026-10-30T00:00:00-23:59", "2026-10-30T23:59:00.000Z"),
        ("2026-10-30T12:00:00+00:00", "2026-10-30T12:00:00.000Z"),
        ("2026-12-31T23:30:00-01:00", "2027-01-01T00:30:00.000Z"),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
    ])
    func readsRealTimes(text: String, canonical: String) throws {
        #expect(Timestamp.string(from: try Timestamp.read(text, date: .endOfDay)) == canonical)
    }

    @Test(arguments: [
        "2026-02-30", "2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "0000-01-01",
        "2026-02-30T12:00:00Z", "2026-10-30T24:00:00Z", "2026-10-30T25:00:00Z", "2026-10-30T10:61:00Z", "2026-10-30T10:60:00Z",
        "2026-10-30T23:59:60Z", "2026-10-30T12:00:00Z\u{0}", "2026-10-30T12:00:00", "2026-10-30T12:00Z", "2026-10-30T12:00:00.Z",
        "2026-10-30T12:00:00.1234567890Z", "2026-10-30t12:00:00Z", "2026-10-30T12:00:00z", "2026-10-30 12:00:00Z",
        "2026-10-30T12:00:00+24:00", "2026-10-30T12:00:00+05:60", "2026-10-30T12:00:00+0500", "2026-10-30T12:00:00+05",
        "2026-10-30T12:00:00 Z", " 2026-10-30", "2026-10-30 ", "26-10-30", "2026-1-30", "20261030", "2026-10-30T1:00:00Z",
        "+2026-10-30", "２０２６-10-30", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01", "", "now", "1790000000",
    ])
    func refusesWhatIsNotATime(text: String) {
        #expect(throws: Timestamp.ParseError.self) { try Timestamp.read(text, date: .endOfDay) }
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func saysWhatIsWrong() {
        #expect(throws: Timestamp.ParseError.notACalendarDate("2026-02-30")) { try Timestamp.read("2026-02-30", date: .endOfDay) }
        #expect(throws: Timestamp.ParseError.hour(24)) { try Timestamp.read("2026-10-30T24:00:00Z", date: nil) }
        #expect(throws: Timestamp.ParseError.minute(61)) { try Timestamp.read("2026-10-30T10:61:00Z", date: nil) }
        #expect(throws: Timestamp.ParseError.second(60)) { try Timestamp.read("2026-10-30T23:59:60Z", date: nil) }
        #expect(throws: Timestamp.ParseError.offset("+24:00")) { try Timestamp.read("2026-10-30T12:00:00+24:00", date: nil) }
        #expect(throws: Timestamp.ParseError.outOfRange) { try Timestamp.read("0001-01-01T00:00:00+00:01", date: nil) }
    }

    /// Days of years 0001–9999 (every 13th, so every day of the month and month of the year
    /// comes round) read back as written: reading and writing share one calendar.
    @Test func daysReadBackExactly() throws {
        var days = CivilCalendar.daysFromCivil(year: 1, month: 1, day: 1)
        let last = CivilCalendar.daysFromCivil(year: 9999, month: 12, day: 31)
        #expect(Timestamp.string(milliseconds: days * Timestamp.millisecondsPerDay) == "0001-01-01T00:00:00.000Z")
        #expect(Timestamp.string(milliseconds: last * Timestamp.millisecondsPerDay + 86_399_999) == "9999-12-31T23:59:59.999Z")
        while days <= last {
            let milliseconds = days * Timestamp.millisecondsPerDay + 45_296_789
            let text = Timestamp.string(milliseconds: milliseconds)
            guard text.hasSuffix("T12:34:56.789Z"), (try? Timestamp.milliseconds(text, date: nil)) == milliseconds else {
                Issue.record("\(text) does not read back")
                break
            }
            days += 13
        }
    }

    @Test func aDateAloneIsAcceptedOnlyWhereAMomentIs() throws {
        #expect(Timestamp.parseTimestamp("2026-10-30") == nil)
        #expect(throws: Timestamp.ParseError.shape(datesAccepted: false)) { try Timestamp.read("2026-10-30", date: nil) }
        #expect(Timestamp.string(from: try Timestamp.read("2026-10-30", date: .startOfDay)) == "2026-10-30T00:00:00.000Z")
        #expect(Timestamp.string(from: try Timestamp.read("2026-10-30", date: .endOfDay)) == "2026-10-30T23:59:59.999Z")
    }

    /// Days from the civil date agree with Foundation's Gregorian calendar on every day of 1600–2400.
    @Test func daysFromCivilMatchesTheGregorianCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = calendar.date(from: DateComponents(year: 1600, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: 2400, month: 12, day: 31))!
        while day <= end {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let days = CivilCalendar.daysFromCivil(year: Int64(parts.year!), month: Int64(parts.month!), day: Int64(parts.day!))
            #expect(days * 86_400 == Int64(day.timeIntervalSince1970))
            let civil = CivilCalendar.civilFromDays(days)
            #expect([civil.year, civil.month, civil.day] == [Int64(parts.year!), Int64(parts.month!), Int64(parts.day!)])
            if days * 86_400 != Int64(day.timeIntervalSince1970) { break }
            day = day.addingTimeInterval(86_400 * 7)
        }
    }

    @Test func theEnvelopeTimestampIsCheckedStrictly() throws {
        func frame(_ ts: String) -> Data {
            Data(#"{"v":1,"id":"a","type":"status","ts":"\#(ts)","body":{}}"#.utf8)
        }
        #expect(throws: Never.self) { try RequestDecoding.parse(frame("2026-11-21T12:00:00.000Z")) }
        #expect(throws: Never.self) { try RequestDecoding.parse(frame("2026-11-21T13:00:00.123456+01:00")) }
        for bad in ["2026-02-30T12:00:00.000Z", "2026-11-21T25:00:00.000Z", "2026-11-21", "yesterday", "2026-11-21T12:00:00.000Z\\u0000"] {
            do {
                _ = try RequestDecoding.parse(frame(bad))
                Issue.record("ts '\(bad)' was accepted")
            } catch {
                // A NUL breaks a value rule, checked before the envelope fields (PROTOCOL.md §2).
                #expect(error.code == (bad.hasSuffix("u0000") ? .validationFailed : .malformed))
                #expect(error.field == "ts")
            }
        }
    }
}
