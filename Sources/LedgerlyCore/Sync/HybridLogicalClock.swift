/// A hybrid logical clock reading: wall-clock milliseconds, a counter for changes within the
/// same millisecond (or while the wall clock is behind a clock already seen), and the device
/// that made it.
///
/// Why a hybrid clock and not the wall clock: two devices' clocks disagree, and a device whose
/// clock runs behind must still order its new change after one it has already received, or its
/// edit would lose to an older one. Why the device id inside: two devices can reach the same
/// millisecond and counter, and last-writer-wins needs a total order that every device computes
/// alike; the device id breaks that tie.
///
/// The text form (`000001764000000000.000000.<device>`) sorts as the clock orders: fixed-width
/// milliseconds and counter, then the device id. It is what sync messages and the hub carry.
public struct HybridLogicalClock: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let milliseconds: Int64
    public let counter: Int
    public let device: String

    /// The counter's width in the text form; a counter past it is refused (a million changes in
    /// one millisecond of one device's clock is not a real ledger).
    static let counterLimit = 999_999

    public init(milliseconds: Int64, counter: Int, device: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.device = device
    }

    /// The clock before anything: every reading sorts after it.
    public static func zero(device: String) -> HybridLogicalClock {
        HybridLogicalClock(milliseconds: 0, counter: 0, device: device)
    }

    /// Reads the text form; nil when it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 18, parts[1].count == 6, !parts[2].isEmpty,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
              let milliseconds = Int64(parts[0]), let counter = Int(parts[1]) else { return nil }
        self.init(milliseconds: milliseconds, counter: counter, device: String(parts[2]))
    }

    public var description: String {
        String(repeating: "0", count: max(0, 18 - String(milliseconds).count)) + String(milliseconds)
            + "." + String(repeating: "0", count: max(0, 6 - String(counter).count)) + String(counter)
            + "." + device
    }

    /// The reading for a new local change at wall time `now` (milliseconds): later than this one
    /// and than the wall clock.
    public func tick(now: Int64) throws(HybridClockError) -> HybridLogicalClock {
        if now > milliseconds { return HybridLogicalClock(milliseconds: now, counter: 0, device: device) }
        guard counter < Self.counterLimit else { throw .counterExhausted(milliseconds: milliseconds) }
        return HybridLogicalClock(milliseconds: milliseconds, counter: counter + 1, device: device)
    }

    /// This device's clock after seeing `remote`: no earlier than it, so the next local change
    /// sorts after everything received.
    public func receiving(_ remote: HybridLogicalClock) -> HybridLogicalClock {
        guard (remote.milliseconds, remote.counter) > (milliseconds, counter) else { return self }
        return HybridLogicalClock(milliseconds: remote.milliseconds, counter: remote.counter, device: device)
    }

    public static func < (lhs: HybridLogicalClock, rhs: HybridLogicalClock) -> Bool {
        (lhs.milliseconds, lhs.counter, lhs.device) < (rhs.milliseconds, rhs.counter, rhs.device)
    }
}

/// Why a clock reading could not be made.
public enum HybridClockError: Error, Equatable, CustomStringConvertible {
    case counterExhausted(milliseconds: Int64)

    public var description: String {
        switch self {
        case .counterExhausted(let milliseconds):
            "the sync clock has made a million readings in millisecond \(milliseconds): this device's clock is far behind another device's; correct the system time"
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
