/// How long a client waits for a reply and how many times it tries (Lazy Pirate, reliability
/// rule 4), one figure per caller role. Kept in one place because each figure is a promise: a
/// service that is down must be reported within a bound, and a slow answer must not be taken for
/// a dead service.
public struct ClientTiming: Sendable, Hashable {
    public let timeoutMilliseconds: Int
    public let attempts: Int

    public init(timeoutMilliseconds: Int, attempts: Int) {
        self.timeoutMilliseconds = timeoutMilliseconds
        self.attempts = max(1, attempts)
    }

    /// The longest the caller can wait before it knows the service is not answering.
    public var worstCaseMilliseconds: Int { timeoutMilliseconds * attempts }

    /// A person at the CLI, and the alerts service's store client: 2.5 s is well above any
    /// answer of a healthy store, and three tries ride out a store restart (7.5 s in all) while
    /// still telling a person promptly that nothing is running. The alerts service must not
    /// wait longer: a single long try froze its alerts for 8–10 s after a store restart.
    public static let standard = ClientTiming(timeoutMilliseconds: 2_500, attempts: 3)

    /// The rates service's store client: it sends whole provider documents' worth of rates in one
    /// request, which may take the store seconds on a busy disk, so each try waits 10 s.
    public static let ratesToStore = ClientTiming(timeoutMilliseconds: 10_000, attempts: 3)

    /// The change follower's `events.since`: one short try, because the follower never gives up;
    /// it asks again on the next heartbeat or silence tick, and a long wait would keep it from
    /// noticing a shutdown or a newer event.
    public static let followerCatchUp = ClientTiming(timeoutMilliseconds: 2_000, attempts: 1)

    /// A CLI command with `--timeout` (default `standard`'s): that long per try, `standard`'s tries.
    public static func cli(timeoutMilliseconds: Int) -> ClientTiming {
        ClientTiming(timeoutMilliseconds: max(minimumCLITimeoutMilliseconds, timeoutMilliseconds), attempts: standard.attempts)
    }

    /// The CLI asking a service whether it is up (`ledgerly status`, before a refresh or a
    /// restore): one try of at most 1 s, so a table of three services answers within 3 s even
    /// with all of them down.
    public static func statusProbe(timeoutMilliseconds: Int) -> ClientTiming {
        ClientTiming(timeoutMilliseconds: min(timeoutMilliseconds, 1_000), attempts: 1)
    }

    /// The CLI's `rates refresh`: providers may legitimately take a minute, and the rates service
    /// has already answered a status probe, so one patient try (a retry would fetch again).
    public static func ratesRefresh(timeoutMilliseconds: Int) -> ClientTiming {
        ClientTiming(timeoutMilliseconds: max(timeoutMilliseconds, 60_000), attempts: 1)
    }

    /// The smallest `--timeout` the CLI accepts: below it even a healthy store on an idle machine
    /// would be reported as not answering.
    public static let minimumCLITimeoutMilliseconds = 50
}
