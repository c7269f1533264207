import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The one row of `settings` (id 1): the one type that reads and writes the table, the place of
/// every statement on it (D454), and the one place the settings become their wire record.
struct SettingsRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "settings"
    /// Properties are the columns in camel case (`starting_balance_minor` → `startingBalanceMinor`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let id = Column("id")
        static let baseCurrency = Column("base_currency")
        static let exchangeMode = Column("exchange_mode")
        static let priceRefreshMinutes = Column("price_refresh_minutes")
        static let staleFiatMinutes = Column("stale_fiat_minutes")
        static let staleCryptoMinutes = Column("stale_crypto_minutes")
        static let staleEquityMinutes = Column("stale_equity_minutes")
        static let allocationDriftPoints = Column("allocation_drift_points")
        static let speculativeGroups = Column("speculative_groups")
        static let cloudSync = Column("cloud_sync")
        static let notifyBudget = Column("notify_budget")
        static let notifyGoals = Column("notify_goals")
        static let notifyRates = Column("notify_rates")
        static let notifyRecurring = Column("notify_recurring")
        static let onboardingCompleted = Column("onboarding_completed")
        static let onboardingProgress = Column("onboarding_progress")
        static let updatedAt = Column("updated_at")
    }

    /// Always 1: the table holds one row (a CHECK constraint).
    var id: Int64 = 1
    var baseCurrency: String?
    var exchangeMode: String
    var priceRefreshMinutes: Int
    var staleFiatMinutes: Int
    var staleCryptoMinutes: Int
    var staleEquityMinutes: Int
    var allocationDriftPoints: Int
    /// A JSON array of group names (default `["speculative"]`).
    var speculativeGroups: String
    var cloudSync: Bool
    var notifyBudget: Bool
    var notifyGoals: Bool
    var notifyRates: Bool
    var notifyRecurring: Bool
    var onboardingCompleted: Bool
    /// The setup wizard's saved answers, as JSON text, until setup completes.
    var onboardingProgress: String?
    var updatedAt: String

    /// The settings row; the first migration creates it, so it always exists. Cached SQL:
    /// several writes read it.
    static func current(_ db: Database) throws -> SettingsRow {
        guard let row = try db.cachedRow(sql: "SELECT * FROM settings WHERE id = 1") else {
            throw LedgerError.broken("the settings row is missing")
        }
        return try SettingsRow(row: row)
    }

    /// The base currency, nil until setup chose one. Cached SQL: most reads and writes ask.
    static func baseCurrency(_ db: Database) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT base_currency FROM settings WHERE id = 1")
    }

    /// The staleness limits in settings; the standard ones if the row is missing.
    static func stalenessPolicy(_ db: Database) throws -> StalenessPolicy {
        guard let row = try db.cachedRow(sql: "SELECT stale_fiat_minutes, stale_crypto_minutes FROM settings WHERE id = 1") else { return .standard }
        return StalenessPolicy(fiatMinutes: row[0], cryptoMinutes: row[1])
    }

    static func onboardingCompleted(_ db: Database) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT onboarding_completed FROM settings WHERE id = 1") ?? false
    }

    /// The exchange mode as stored (`official`, …); nil only if the row is missing.
    static func exchangeMode(_ db: Database) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT exchange_mode FROM settings WHERE id = 1")
    }

    /// Switches the exchange mode (`rates profile use` of another type's profile).
    static func setExchangeMode(_ db: Database, _ mode: String, now: String) throws {
        try db.execute(cached: "UPDATE settings SET exchange_mode = ?, updated_at = ? WHERE id = 1", arguments: [mode, now])
    }

    var record: SettingsRecord {
        SettingsRecord(
            baseCurrency: baseCurrency, exchangeMode: ExchangeMode(rawValue: exchangeMode) ?? .official,
            priceRefreshIntervalMinutes: priceRefreshMinutes, staleFiatMinutes: staleFiatMinutes, staleCryptoMinutes: staleCryptoMinutes,
            staleEquityMinutes: staleEquityMinutes, allocationDriftPoints: allocationDriftPoints,
            speculativeGroups: speculativeGroupList, cloudSync: cloudSync,
            notifications: NotificationSettings(budgetAlerts: notifyBudget, goalAlerts: notifyGoals, rateAlerts: notifyRates, recurringReminders: notifyRecurring),
            onboardingCompleted: onboardingCompleted,
            onboardingProgress: onboardingProgress.flatMap { try? MessageCoding.decoder().decode(OnboardingProgress.self, from: Data($0.utf8)) },
            updatedAt: updatedAt)
    }

    /// The speculative groups as a list; the column is written only from a checked list.
    var speculativeGroupList: [String] {
        (try? MessageCoding.decoder().decode([String].self, from: Data(speculativeGroups.utf8))) ?? ["speculative"]
    }
}
