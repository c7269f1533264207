import GRDB
import LedgerlyProtocol

/// A row of `rate_providers`: a provider's last attempt as the rates service reported it. The
/// one type that reads the table and the one place a status becomes its wire record; the report
/// itself is one cached upsert (`RateProviderHandlers.report`), whose rules (a failure keeps the
/// last success) are SQL.
struct RateProviderRow: Codable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "rate_providers"
    /// Properties are the columns in camel case (`last_attempt_at` → `lastAttemptAt`).
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    enum Columns {
        static let name = Column("name")
    }

    var name: String
    var profile: String
    var lastAttemptAt: String
    var lastSuccessAt: String?
    var lastError: String?
    var consecutiveFailures: Int
    var nextAttemptAt: String?
    var stored: Int
    var confirmed: Int
    /// A daily request quota's state (Alpha Vantage), kept so a restarted rates service goes on
    /// counting the same day.
    var requestsUsed: Int?
    var requestQuota: Int?
    var quotaDay: String?

    var record: RateProviderStatus {
        RateProviderStatus(name: name, profile: profile, lastAttemptAt: lastAttemptAt, lastSuccessAt: lastSuccessAt, lastError: lastError,
                           consecutiveFailures: consecutiveFailures, nextAttemptAt: nextAttemptAt, stored: stored, confirmed: confirmed,
                           requestsUsed: requestsUsed, requestQuota: requestQuota, quotaDay: quotaDay)
    }
}
