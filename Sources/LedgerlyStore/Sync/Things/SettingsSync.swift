import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// The ledger's settings: one thing per ledger, the same global id everywhere. Whether this
/// device syncs (`cloudSync`) and the setup wizard's saved answers stay with the device.
///
/// Which rate profile each exchange mode uses (`rates profile use`) is a setting here, one field
/// naming profiles by global id, not a flag on each profile: merged flag by flag, two choices made
/// apart could leave a mode with no profile or with two (D311).
enum SettingsSync: SyncedThing {
    static let entity = "settings"

    static func derivedGid(_ db: Database, id: Int64, identities: SyncIdentities) throws -> String? { "settings" }

    private struct Fields: Codable {
        var baseCurrency: String?
        var exchangeMode: String
        var priceRefreshIntervalMinutes: Int
        var staleFiatMinutes: Int
        var staleCryptoMinutes: Int
        var staleEquityMinutes: Int
        var allocationDriftPoints: Int
        var speculativeGroups: [String]
        var notifications: NotificationSettings
        var onboardingCompleted: Bool
        /// Each mode's profile in use, by mode (`official`, `parallel`, `manual`).
        var rateProfiles: [String: String]?
        var updatedAt: String
    }

    static func scan(_ db: Database, after: Int64, limit: Int) throws -> (ids: [Int64], next: Int64) {
        after >= 1 ? ([], after) : ([1], 1)
    }

    static func fields(_ db: Database, id: Int64, identities: SyncIdentities) throws -> SyncFields.Object? {
        let settings = try SettingsRow.current(db)
        let record = settings.record
        return try SyncFields.object(Fields(
            baseCurrency: record.baseCurrency, exchangeMode: settings.exchangeMode, priceRefreshIntervalMinutes: record.priceRefreshIntervalMinutes,
            staleFiatMinutes: record.staleFiatMinutes, staleCryptoMinutes: record.staleCryptoMinutes, staleEquityMinutes: record.staleEquityMinutes,
            allocationDriftPoints: record.allocationDriftPoints, speculativeGroups: record.speculativeGroups, notifications: record.notifications,
            onboardingCompleted: record.onboardingCompleted, rateProfiles: try rateProfiles(db, identities: identities), updatedAt: record.updatedAt))
    }

    private static func rateProfiles(_ db: Database, identities: SyncIdentities) throws -> [String: String] {
        var profiles: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, type FROM rate_profiles WHERE is_default = 1 ORDER BY id") {
            profiles[row[1]] = try identities.gid(RateProfileSync.self, localId: row[0])
        }
        return profiles
    }

    static func write(_ object: SyncFields.Object, gid: String, localId: Int64?, idHint: Int64?, identities: SyncIdentities, _ context: inout WriteContext) throws -> Int64 {
        let db = context.db
        let field = FieldPath.body("messages")
        let fields = try SyncFields.decode(Fields.self, from: object, entity: entity)
        var settings = try SettingsRow.current(db)
        if let code = fields.baseCurrency {
            let currency = try InputRules.currency(code, field: field)
            if let current = settings.baseCurrency, current != currency.code, try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM transactions)") == true {
                throw LedgerError.conflict("the synced base currency \(currency.code) differs from this device's \(current), and this device has transactions in \(current)", field: field)
            }
            settings.baseCurrency = currency.code
        } else {
            settings.baseCurrency = nil
        }
        guard ExchangeMode(rawValue: fields.exchangeMode) != nil else { throw LedgerError.invalid("a synced exchange mode '\(fields.exchangeMode)' is not known here", field: field) }
        settings.exchangeMode = fields.exchangeMode
        // The ranges `settings.update` allows: a message from a broken device is refused, not stored.
        for minutes in [fields.priceRefreshIntervalMinutes, fields.staleFiatMinutes, fields.staleCryptoMinutes, fields.staleEquityMinutes] where !(1...10_080).contains(minutes) {
            throw LedgerError.invalid("a synced setting of \(minutes) minutes is outside 1 to 10080", field: field)
        }
        guard (1...100).contains(fields.allocationDriftPoints) else {
            throw LedgerError.invalid("a synced drift of \(fields.allocationDriftPoints) points is outside 1 to 100", field: field)
        }
        settings.priceRefreshMinutes = fields.priceRefreshIntervalMinutes
        settings.staleFiatMinutes = fields.staleFiatMinutes
        settings.staleCryptoMinutes = fields.staleCryptoMinutes
        settings.staleEquityMinutes = fields.staleEquityMinutes
        settings.allocationDriftPoints = fields.allocationDriftPoints
        settings.speculativeGroups = try SyncFields.text(fields.speculativeGroups)
        settings.notifyBudget = fields.notifications.budgetAlerts
        settings.notifyGoals = fields.notifications.goalAlerts
        settings.notifyRates = fields.notifications.rateAlerts
        settings.notifyRecurring = fields.notifications.recurringReminders
        let completing = fields.onboardingCompleted && !settings.onboardingCompleted
        settings.onboardingCompleted = fields.onboardingCompleted
        if completing { settings.onboardingProgress = nil }
        settings.updatedAt = fields.updatedAt
        try settings.update(db)
        for (mode, profile) in (fields.rateProfiles ?? [:]).sorted(by: { $0.key < $1.key }) {
            // A choice this device cannot follow (a profile it left out, a mode a newer version
            // has) keeps this device's choice for that mode, and says so: the rest still applies.
            guard ExchangeMode(rawValue: mode) != nil,
                  let id = try SyncIdentityRow.find(db, entity: RateProfileSync.entity, gid: profile)?.localId,
                  try db.cachedValue(String.self, sql: "SELECT type FROM rate_profiles WHERE id = ?", arguments: [id]) == mode else {
                identities.notices.append("the rate profile another device uses for \(mode) rates is not here: this device keeps its own choice for \(mode)")
                continue
            }
            let changed = try Int64.fetchAll(db, sql: "SELECT id FROM rate_profiles WHERE type = ? AND is_default != (id = ?)", arguments: [mode, id])
            try db.execute(sql: "UPDATE rate_profiles SET is_default = (id = ?) WHERE type = ?", arguments: [id, mode])
            for profile in changed {
                try context.record(.rateProfileUpdated, id: String(profile), data: try RateHandlers.profile(db, id: profile, field: field))
            }
        }
        try context.record(completing ? .setupCompleted : .settingsUpdated, id: "settings", data: settings.record)
        return 1
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "the settings cannot be deleted"
    }
}
