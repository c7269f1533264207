import Foundation
import LedgerlyCore

/// Today and the months around it, as the store writes them ("2026-12-07", "2026-12").
enum WebCalendar {
    static func today() -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    static func month(of day: String) -> String { LedgerMonth.of(day) }

    /// The month `count` months before the one holding `day`.
    static func monthsBefore(_ count: Int, _ day: String) -> String {
        var month = LedgerMonth.of(day)
        for _ in 0..<count { month = LedgerMonth.previous(month) }
        return month
    }
}
