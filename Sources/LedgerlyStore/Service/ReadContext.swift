import Foundation
import GRDB
import LedgerlyProtocol

/// What a read handler works with, beside `WriteContext` for writes: one read transaction, the
/// service clock's "now" (shifted by `--clock-offset`), and the database's epoch. Handlers get
/// the time from here, never from `Date()`, so a rehearsal with a shifted clock sees one time.
struct ReadContext {
    let db: Database
    let date: Date
    let epoch: String

    /// Today's date (YYYY-MM-DD) by the service clock.
    var today: String { Timestamp.today(at: date) }
}
