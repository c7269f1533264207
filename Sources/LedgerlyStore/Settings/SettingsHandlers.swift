import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `settings.get`, `settings.update`, `setup.save`, `setup.complete`.
enum SettingsHandlers {
    static func fetch(_ db: Database) throws -> SettingsRecord {
        let row = try db.cachedRow(sql: "SELECT * FROM settings WHERE id = 1")!
        let progress: OnboardingProgress? = (row["onboarding_progress"] as String?).flatMap {
            try? MessageCoding.decoder().decode(OnboardingProgress.self, from: Data($0.utf8))
        }
        return SettingsRecord(
            baseCurrency: row["base_currency"],
            exchangeMode: ExchangeMode(rawValue: row["exchange_mode"]) ?? .official,
            priceRefreshIntervalMinutes: row["price_refresh_minutes"],
            staleFiatMinutes: row["stale_fiat_minutes"],
            staleCryptoMinutes: row["stale_crypto_minutes"],
            cloudSync: row["cloud_sync"],
            notifications: NotificationSettings(budgetAlerts: row["notify_budget"], goalAlerts: row["notify_goals"], rateAlerts: row["notify_rates"], recurringReminders: row["notify_recurring"]),
            onboardingCompleted: row["onboarding_completed"],
            onboardingProgress: progress,
            updatedAt: row["updated_at"])
    }

    /// The base currency, nil until setup chose one.
    static func baseCurrency(_ db: Database) throws -> String? {
        try db.cachedValue(String.self, sql: "SELECT base_currency FROM settings WHERE id = 1")
    }

    /// The staleness limits in settings.
    static func stalenessPolicy(_ db: Database) throws -> StalenessPolicy {
        guard let row = try db.cachedRow(sql: "SELECT stale_fiat_minutes, stale_crypto_minutes FROM settings WHERE id = 1") else { return .standard }
        return StalenessPolicy(fiatMinutes: row[0], cryptoMinutes: row[1])
    }

    static func isSetupCompleted(_ db: Database) throws -> Bool {
        try db.cachedValue(Bool.self, sql: "SELECT onboarding_completed FROM settings WHERE id = 1") ?? false
    }

    static func get(_ request: SettingsGetRequest, _ db: Database) throws -> SettingsRecord {
        try fetch(db)
    }

    static func update(_ request: SettingsUpdateRequest, _ context: inout WriteContext) throws -> SettingsRecord {
        let db = context.db
        if let code = request.baseCurrency {
            let currency = try InputRules.currency(code, field: .body("baseCurrency"))
            let current = try baseCurrency(db)
            if current != nil, current != currency.code, try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM transactions)") == true {
                // Stored base amounts are in the old base currency; changing it needs them
                // re-converted, which needs the rates engine. Refuse rather than mix currencies.
                throw LedgerError.conflict("the base currency cannot change from \(current!) to \(currency.code) once transactions exist: their base amounts are in \(current!)", field: .body("baseCurrency"))
            }
            try db.execute(cached: "UPDATE settings SET base_currency = ? WHERE id = 1", arguments: [currency.code])
        }
        if let mode = request.exchangeMode {
            try db.execute(cached: "UPDATE settings SET exchange_mode = ? WHERE id = 1", arguments: [mode.rawValue])
        }
        for (value, field, column) in [(request.priceRefreshIntervalMinutes, "priceRefreshIntervalMinutes", "price_refresh_minutes"),
                                       (request.staleFiatMinutes, "staleFiatMinutes", "stale_fiat_minutes"),
                                       (request.staleCryptoMinutes, "staleCryptoMinutes", "stale_crypto_minutes")] {
            guard let minutes = value else { continue }
            guard (1...10_080).contains(minutes) else {
                throw LedgerError.invalid("body.\(field) must be between 1 and 10080 (a week), got \(minutes)", field: .body(field))
            }
            try db.execute(sql: "UPDATE settings SET \(column) = ? WHERE id = 1", arguments: [minutes])
        }
        if let sync = request.cloudSync {
            try db.execute(cached: "UPDATE settings SET cloud_sync = ? WHERE id = 1", arguments: [sync])
        }
        if let notifications = request.notifications {
            try db.execute(cached: "UPDATE settings SET notify_budget = ?, notify_goals = ?, notify_rates = ?, notify_recurring = ? WHERE id = 1",
                arguments: [notifications.budgetAlerts, notifications.goalAlerts, notifications.rateAlerts, notifications.recurringReminders])
        }
        return try touchAndRecord(.settingsUpdated, &context)
    }

    static func save(_ request: SetupSaveRequest, _ context: inout WriteContext) throws -> SettingsRecord {
        let progress = request.progress
        guard (1...5).contains(progress.step) else {
            throw LedgerError.invalid("body.progress.step must be 1 to 5, got \(progress.step)", field: .body("progress").member("step"))
        }
        if let code = progress.baseCurrency { _ = try InputRules.currency(code, field: .body("progress").member("baseCurrency")) }
        let json = String(decoding: try MessageCoding.encode(progress), as: UTF8.self)
        try context.db.execute(cached: "UPDATE settings SET onboarding_progress = ? WHERE id = 1", arguments: [json])
        return try touchAndRecord(.settingsUpdated, &context)
    }

    static func complete(_ request: SetupCompleteRequest, _ context: inout WriteContext) throws -> SettingsRecord {
        guard try !isSetupCompleted(context.db) else {
            throw LedgerError.conflict("Ledgerly is already set up; change settings with settings.update (`ledgerly settings set`)")
        }
        let currency = try InputRules.currency(request.baseCurrency, field: .body("baseCurrency"))
        try context.db.execute(cached: "UPDATE settings SET base_currency = ?, exchange_mode = ?, cloud_sync = ?, onboarding_completed = 1, onboarding_progress = NULL WHERE id = 1",
            arguments: [currency.code, request.exchangeMode.rawValue, request.cloudSync])
        return try touchAndRecord(.setupCompleted, &context)
    }

    private static func touchAndRecord(_ type: ChangeEventType, _ context: inout WriteContext) throws -> SettingsRecord {
        try context.db.execute(cached: "UPDATE settings SET updated_at = ? WHERE id = 1", arguments: [context.now])
        let record = try fetch(context.db)
        try context.record(type, id: "settings", data: record)
        return record
    }
}
