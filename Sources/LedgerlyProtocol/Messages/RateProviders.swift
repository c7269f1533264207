/// The health of one rate provider as the rates service last reported it: what `ledgerly status`
/// shows, and what a restarted rates service resumes its schedule and backoff from.
public struct RateProviderStatus: Codable, Hashable, Sendable {
    public var name: String
    /// The rate profile it feeds (by name).
    public var profile: String
    public var lastAttemptAt: String
    public var lastSuccessAt: String?
    /// The last failure's reason; nil once a refresh succeeds again.
    public var lastError: String?
    /// Failures in a row; the backoff doubles with each (0 when healthy).
    public var consecutiveFailures: Int
    /// When it will be asked next: the regular interval after a success, the backoff after a failure.
    public var nextAttemptAt: String?
    /// What the last successful refresh did.
    public var stored: Int
    public var confirmed: Int
    /// For a provider with a daily request quota (Alpha Vantage's prices): requests spent on
    /// `quotaDay` (a UTC day), of `requestQuota`. Absent for other providers.
    public var requestsUsed: Int?
    public var requestQuota: Int?
    public var quotaDay: String?

    public init(name: String, profile: String, lastAttemptAt: String, lastSuccessAt: String?, lastError: String?, consecutiveFailures: Int, nextAttemptAt: String?, stored: Int, confirmed: Int,
                requestsUsed: Int? = nil, requestQuota: Int? = nil, quotaDay: String? = nil) {
        self.name = name
        self.profile = profile
        self.lastAttemptAt = lastAttemptAt
        self.lastSuccessAt = lastSuccessAt
        self.lastError = lastError
        self.consecutiveFailures = consecutiveFailures
        self.nextAttemptAt = nextAttemptAt
        self.stored = stored
        self.confirmed = confirmed
        self.requestsUsed = requestsUsed
        self.requestQuota = requestQuota
        self.quotaDay = quotaDay
    }
}

extension RateProviderStatus {
    /// The longest `lastError` the store keeps.
    public static let maximumErrorLength = 1_000

    /// An error message cut to what the store keeps, so an overlong reason (a provider's whole
    /// HTML page quoted back) cannot make the report itself fail.
    public static func fitting(_ error: String) -> String {
        error.count <= maximumErrorLength ? error : String(error.prefix(maximumErrorLength - 1)) + "…"
    }
}

/// `rates.provider.report`, sent by `ledgerly-rates` after each attempt: the store keeps it and
/// records it in the change log (`rates.provider.status`), so failures and backoff are visible
/// to every client and survive a restart of the rates service.
public struct RateProviderReportRequest: WriteRequest, Hashable {
    public typealias Reply = RateProviderStatus
    public static let messageType: MessageType = "rates.provider.report"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var name: String
    public var profile: String
    public var attemptedAt: String
    /// nil when the attempt succeeded.
    public var error: String?
    public var consecutiveFailures: Int
    public var nextAttemptAt: String?
    public var stored: Int
    public var confirmed: Int
    /// A daily request quota's state, for the providers that have one (see `RateProviderStatus`):
    /// kept by the store so that a restarted rates service does not spend the day's requests again.
    public var requestsUsed: Int?
    public var requestQuota: Int?
    /// "YYYY-MM-DD", the UTC day `requestsUsed` counts.
    public var quotaDay: String?

    public init(name: String, profile: String, attemptedAt: String, error: String?, consecutiveFailures: Int, nextAttemptAt: String?, stored: Int, confirmed: Int,
                requestsUsed: Int? = nil, requestQuota: Int? = nil, quotaDay: String? = nil) {
        self.name = name
        self.profile = profile
        self.attemptedAt = attemptedAt
        self.error = error
        self.consecutiveFailures = consecutiveFailures
        self.nextAttemptAt = nextAttemptAt
        self.stored = stored
        self.confirmed = confirmed
        self.requestsUsed = requestsUsed
        self.requestQuota = requestQuota
        self.quotaDay = quotaDay
    }
}

/// `rates.provider.list`: every provider's last reported status, by name.
public struct RateProviderListRequest: ReadRequest, Hashable {
    public typealias Reply = RateProviderListReply
    public static let messageType: MessageType = "rates.provider.list"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public init() {}
}

public struct RateProviderListReply: Codable, Hashable, Sendable {
    public var providers: [RateProviderStatus]
    public init(providers: [RateProviderStatus]) { self.providers = providers }
}

/// `rates.provider.forget`, sent by `ledgerly-rates` when it starts, for each provider the store
/// still reports that its configuration no longer has: its status is removed, so `ledgerly
/// status` does not show a provider that was taken out as failing forever.
public struct RateProviderForgetRequest: WriteRequest, Hashable {
    public typealias Reply = RateProviderForgetReply
    public static let messageType: MessageType = "rates.provider.forget"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var name: String
    public init(name: String) { self.name = name }
}

public struct RateProviderForgetReply: Codable, Hashable, Sendable {
    /// The status that was removed; nil when the store kept none under that name.
    public var removed: RateProviderStatus?
    public init(removed: RateProviderStatus?) { self.removed = removed }
}
