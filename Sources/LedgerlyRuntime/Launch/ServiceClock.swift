import FoundationEssentials

/// The time a service works with: the system clock, optionally shifted by a fixed offset.
///
/// The offset (`--clock-offset SECONDS` on every service) exists so tests and rehearsals can
/// simulate time passing — a rate going stale, months of downtime — with the real processes,
/// instead of waiting or faking them. It is a value handed to what needs "now", not a global.
public struct ServiceClock: Sendable, Hashable {
    public let offsetSeconds: Int64

    public static let system = ServiceClock(offsetSeconds: 0)

    /// A century either way: enough for any rehearsal, and far from where adding the offset to
    /// a `Date` could overflow or land before the calendars the ledger reads.
    public static let maximumOffsetSeconds: Int64 = 100 * 365 * 86_400

    public init(offsetSeconds: Int64) { self.offsetSeconds = offsetSeconds }

    /// The clock for an offset given on the command line; nil when it is out of range.
    public init?(validatingOffset seconds: Int64) {
        guard abs(seconds) <= Self.maximumOffsetSeconds else { return nil }
        self.init(offsetSeconds: seconds)
    }

    public func now() -> Date { Date().addingTimeInterval(TimeInterval(offsetSeconds)) }
}
