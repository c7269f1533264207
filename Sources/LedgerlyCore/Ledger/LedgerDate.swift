/// A calendar date ("2026-11-21") without time zone: the day a transaction belongs to.
///
/// Stored and sent as ISO 8601 text, which sorts and compares correctly as a string.
public struct LedgerDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(_ text: String) {
        // Exactly `DDDD-DD-DD` in ASCII, read on bytes: every transaction a batch records, an
        // export writes or a report lists has its day read or written here. The bytes are read
        // in place: stepping a `String.UTF8View` cost twice the rest of the parse (D382).
        var text = text
        let parsed = text.withUTF8 { bytes -> (year: Int, month: Int, day: Int)? in
            guard bytes.count == 10 else { return nil }
            var values = (year: 0, month: 0, day: 0)
            for offset in 0..<10 {
                let byte = bytes[offset]
                if offset == 4 || offset == 7 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                let digit = Int(byte - 0x30)
                switch offset {
                case 0..<4: values.year = values.year * 10 + digit
                case 5, 6: values.month = values.month * 10 + digit
                default: values.day = values.day * 10 + digit
                }
            }
            return values
        }
        guard let (year, month, day) = parsed else { return nil }
        guard (1...9999).contains(year), (1...12).contains(month), (1...LedgerDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Ten ASCII bytes written in place (a small string, no allocation). Every date is made by
    /// `init?(_:)`, which holds the year to 1…9999, so four digits always suffice.
    public var description: String {
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, at offset: Int, width: Int) {
                var value = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, at: 0, width: 4)
            buffer[4] = UInt8(ascii: "-")
            put(month, at: 5, width: 2)
            buffer[7] = UInt8(ascii: "-")
            put(day, at: 8, width: 2)
            return 10
        }
    }

    public static func < (lhs: LedgerDate, rhs: LedgerDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
