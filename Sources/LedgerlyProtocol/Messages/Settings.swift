import LedgerlyCore

/// The singleton app settings, as the store returns them.
public struct SettingsRecord: Codable, Hashable, Sendable {
    /// Nil until setup has chosen one.
    public var baseCurrency: String?
    public var exchangeMode: ExchangeMode
    public var priceRefreshIntervalMinutes: Int
    /// A fiat rate older than this is stale (default 60); a crypto price older than
    /// `staleCryptoMinutes` (default 15).
    public var staleFiatMinutes: Int
    public var staleCryptoMinutes: Int
    /// A price of any asset that is not crypto is stale after this (default 60).
    public var staleEquityMinutes: Int
    /// An allocation target drifts when |actual − target| is past this many percentage points
    /// (default 5).
    public var allocationDriftPoints: Int
    /// Allocation groups whose holdings are speculative: left out of core net worth and counted
    /// as volatile (default `["speculative"]`; compared exactly, case included).
    public var speculativeGroups: [String]
    public var cloudSync: Bool
    public var notifications: NotificationSettings
    public var onboardingCompleted: Bool
    /// Saved partial progress of `ledgerly setup`, so quitting midway resumes there.
    public var onboardingProgress: OnboardingProgress?
    public var updatedAt: String

    public init(baseCurrency: String?, exchangeMode: ExchangeMode, priceRefreshIntervalMinutes: Int, staleFiatMinutes: Int, staleCryptoMinutes: Int, staleEquityMinutes: Int, allocationDriftPoints: Int, speculativeGroups: [String], cloudSync: Bool, notifications: NotificationSettings, onboardingCompleted: Bool, onboardingProgress: OnboardingProgress?, updatedAt: String) {
        self.baseCurrency = baseCurrency
        self.exchangeMode = exchangeMode
        self.priceRefreshIntervalMinutes = priceRefreshIntervalMinutes
        self.staleFiatMinutes = staleFiatMinutes
        self.staleCryptoMinutes = staleCryptoMinutes
        self.staleEquityMinutes = staleEquityMinutes
        self.allocationDriftPoints = allocationDriftPoints
        self.speculativeGroups = speculativeGroups
        self.cloudSync = cloudSync
        self.notifications = notifications
        self.onboardingCompleted = onboardingCompleted
        self.onboardingProgress = onboardingProgress
        self.updatedAt = updatedAt
    }
}

extension SettingsRecord {
    private enum CodingKeys: String, CodingKey {
        case baseCurrency, exchangeMode, priceRefreshIntervalMinutes, staleFiatMinutes, staleCryptoMinutes, staleEquityMinutes, allocationDriftPoints, speculativeGroups
        case cloudSync, notifications, onboardingCompleted, onboardingProgress, updatedAt
    }

    /// Exports written before investments have no `staleEquityMinutes` or
    /// `allocationDriftPoints`, and those before net worth no `speculativeGroups`: they read as
    /// the defaults (60, 5 and `["speculative"]`), so old files restore.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            baseCurrency: try container.decodeIfPresent(String.self, forKey: .baseCurrency),
            exchangeMode: try container.decode(ExchangeMode.self, forKey: .exchangeMode),
            priceRefreshIntervalMinutes: try container.decode(Int.self, forKey: .priceRefreshIntervalMinutes),
            staleFiatMinutes: try container.decode(Int.self, forKey: .staleFiatMinutes),
            staleCryptoMinutes: try container.decode(Int.self, forKey: .staleCryptoMinutes),
            staleEquityMinutes: try container.decodeIfPresent(Int.self, forKey: .staleEquityMinutes) ?? 60,
            allocationDriftPoints: try container.decodeIfPresent(Int.self, forKey: .allocationDriftPoints) ?? 5,
            speculativeGroups: try container.decodeIfPresent([String].self, forKey: .speculativeGroups) ?? ["speculative"],
            cloudSync: try container.decode(Bool.self, forKey: .cloudSync),
            notifications: try container.decode(NotificationSettings.self, forKey: .notifications),
            onboardingCompleted: try container.decode(Bool.self, forKey: .onboardingCompleted),
            onboardingProgress: try container.decodeIfPresent(OnboardingProgress.self, forKey: .onboardingProgress),
            updatedAt: try container.decode(String.self, forKey: .updatedAt))
    }
}

public struct NotificationSettings: Codable, Hashable, Sendable {
    public var budgetAlerts: Bool
    public var goalAlerts: Bool
    public var rateAlerts: Bool
    public var recurringReminders: Bool

    public init(budgetAlerts: Bool = true, goalAlerts: Bool = true, rateAlerts: Bool = true, recurringReminders: Bool = true) {
        self.budgetAlerts = budgetAlerts
        self.goalAlerts = goalAlerts
        self.rateAlerts = rateAlerts
        self.recurringReminders = recurringReminders
    }
}

/// How far `ledgerly setup` got and what was chosen so far.
public struct OnboardingProgress: Codable, Hashable, Sendable {
    /// The step to resume at: 1 welcome, 2 base currency, 3 exchange mode, 4 sync, 5 summary.
    public var step: Int
    public var baseCurrency: String?
    public var exchangeMode: ExchangeMode?
    public var cloudSync: Bool?

    public init(step: Int, baseCurrency: String? = nil, exchangeMode: ExchangeMode? = nil, cloudSync: Bool? = nil) {
        self.step = step
        self.baseCurrency = baseCurrency
        self.exchangeMode = exchangeMode
        self.cloudSync = cloudSync
    }
}

/// `settings.get`
public struct SettingsGetRequest: ReadRequest, Hashable {
    public typealias Reply = SettingsRecord
    public static let messageType: MessageType = "settings.get"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public init() {}
}

/// `settings.update`: changes only the fields that are present.
public struct SettingsUpdateRequest: WriteRequest, Hashable {
    public typealias Reply = SettingsRecord
    public static let messageType: MessageType = "settings.update"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var baseCurrency: String?
    public var exchangeMode: ExchangeMode?
    public var priceRefreshIntervalMinutes: Int?
    /// 1...10080 minutes each.
    public var staleFiatMinutes: Int?
    public var staleCryptoMinutes: Int?
    public var staleEquityMinutes: Int?
    /// 1...100 percentage points.
    public var allocationDriftPoints: Int?
    /// Replaces the list; each group 1...100 characters, at most 50 groups, no repeats.
    public var speculativeGroups: [String]?
    public var cloudSync: Bool?
    public var notifications: NotificationSettings?

    public init(baseCurrency: String? = nil, exchangeMode: ExchangeMode? = nil, priceRefreshIntervalMinutes: Int? = nil, staleFiatMinutes: Int? = nil, staleCryptoMinutes: Int? = nil, staleEquityMinutes: Int? = nil, allocationDriftPoints: Int? = nil, speculativeGroups: [String]? = nil, cloudSync: Bool? = nil, notifications: NotificationSettings? = nil) {
        self.baseCurrency = baseCurrency
        self.exchangeMode = exchangeMode
        self.priceRefreshIntervalMinutes = priceRefreshIntervalMinutes
        self.staleFiatMinutes = staleFiatMinutes
        self.staleCryptoMinutes = staleCryptoMinutes
        self.staleEquityMinutes = staleEquityMinutes
        self.allocationDriftPoints = allocationDriftPoints
        self.speculativeGroups = speculativeGroups
        self.cloudSync = cloudSync
        self.notifications = notifications
    }
}
