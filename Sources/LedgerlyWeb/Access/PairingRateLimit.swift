import Synchronization

/// How often the pairing page may be tried (D593): at most 5 attempts from one address and 10
/// from all addresses together in any 60 seconds; past either, an attempt is refused (429) with
/// the seconds until one is allowed, right code or not. Every attempt counts, right or wrong.
/// With ten minutes per code that is at most 100 guesses at one code of some 6.6 × 10¹¹.
///
/// Timed on the monotonic clock (`ContinuousClock`): neither `--clock-offset` nor a change of
/// the system time moves it (D596). Kept in memory: a restart forgets it, which a restart's own
/// delay bounds.
public final class PairingRateLimit: Sendable {
    public static let window: Duration = .seconds(60)
    public static let perAddress = 5
    public static let overall = 10
    /// Addresses remembered at once; past that the one with the oldest attempts goes.
    static let addressCapacity = 1024

    public enum Decision: Equatable, Sendable {
        case allowed
        /// Refused; try again after this many whole seconds.
        case refused(retryAfterSeconds: Int)
    }

    private struct Attempts {
        var all: [ContinuousClock.Instant] = []
        var byAddress: [String: [ContinuousClock.Instant]] = [:]
    }

    private let attempts = Mutex(Attempts())

    public init() {}

    /// Records an attempt from `address` at `now` when it is allowed.
    public func attempt(from address: String, at now: ContinuousClock.Instant = .now) -> Decision {
        attempts.withLock { state in
            let since = now - Self.window
            state.all.removeAll { $0 <= since }
            var mine = (state.byAddress[address] ?? []).filter { $0 > since }
            var waits: [ContinuousClock.Instant] = []
            if mine.count >= Self.perAddress { waits.append(mine[mine.count - Self.perAddress]) }
            if state.all.count >= Self.overall { waits.append(state.all[state.all.count - Self.overall]) }
            if let oldest = waits.max() {
                state.byAddress[address] = mine
                let wait = (oldest + Self.window) - now
                let seconds = Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0)
                return .refused(retryAfterSeconds: max(1, seconds))
            }
            mine.append(now)
            state.all.append(now)
            state.byAddress[address] = mine
            if state.byAddress.count > Self.addressCapacity {
                state.byAddress = state.byAddress.filter { !$0.value.isEmpty && $0.value.last! > since }
                while state.byAddress.count > Self.addressCapacity, let oldest = state.byAddress.min(by: { $0.value.last! < $1.value.last! })?.key {
                    state.byAddress[oldest] = nil
                }
            }
            return .allowed
        }
    }
}
