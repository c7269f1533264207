import GRDB
import LedgerlyProtocol

/// A row of `rate_providers`: a provider's last attempt as the rates service reported it. The
/// one type that reads and writes the table (D454) and the one place a status becomes its wire
/// record; the report itself is one cached upsert (`report`), whose rules (a failure keeps the
/// last success) are SQL (D455).
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

    /// Stores a provider's attempt. A failure (`error`) keeps the last success and its counts;
    /// a success clears the last error. A quota left out keeps the stored one.
    static func report(_ db: Database, name: String, profile: String, attemptedAt: String, error: String?, consecutiveFailures: Int,
                       nextAttemptAt: String?, stored: Int, confirmed: Int, requestsUsed: Int?, requestQuota: Int?, quotaDay: String?) throws {
        try db.execute(
            cached: """
                INSERT INTO rate_providers (name, profile, last_attempt_at, last_success_at, last_error, consecutive_failures, next_attempt_at, stored, confirmed,
                                            requests_used, request_quota, quota_day)
                VALUES (?, ?, ?, CASE WHEN ? IS NULL THEN ? END, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET
                    profile = excluded.profile, last_attempt_at = excluded.last_attempt_at,
                    last_success_at = coalesce(excluded.last_success_at, last_success_at),
                    last_error = excluded.last_error, consecutive_failures = excluded.consecutive_failures,
                    next_attempt_at = excluded.next_attempt_at,
                    stored = CASE WHEN excluded.last_error IS NULL THEN excluded.stored ELSE stored END,
                    confirmed = CASE WHEN excluded.last_error IS NULL THEN excluded.confirmed ELSE confirmed END,
                    requests_used = coalesce(excluded.requests_used, requests_used),
                    request_quota = coalesce(excluded.request_quota, request_quota),
                    quota_day = coalesce(excluded.quota_day, quota_day)
                """,
            arguments: [name, profile, attemptedAt, error, attemptedAt, error, consecutiveFailures, nextAttemptAt, stored, confirmed,
                        requestsUsed, requestQuota, quotaDay])
    }
}
