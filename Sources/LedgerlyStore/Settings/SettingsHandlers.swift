import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `settings.get`, `settings.update`, `setup.save`, `setup.complete`: the rules; `SettingsRow`
/// reads and writes the table.
enum SettingsHandlers {
    static func fetch(_ db: Database) throws -> SettingsRecord {
        try SettingsRow.current(db).record
    }

    /// The base currency, nil until setup chose one.
    static func baseCurrency(_ db: Database) throws -> String? {
        try SettingsRow.baseCurrency(db)
    }

    /// The staleness limits in settings.
    static func stalenessPolicy(_ db: Database) throws -> StalenessPolicy {
        try SettingsRow.stalenessPolicy(db)
    }

    static func isSetupCompleted(_ db: Database) throws -> Bool {
        try SettingsRow.onboardingCompleted(db)
    }

    static func get(_ request: SettingsGetRequest, _ db: Database) throws -> SettingsRecord {
        try fetch(db)
    }

    static func update(_ request: SettingsUpdateRequest, _ context: inout WriteContext) throws -> SettingsRecord {
        let db = context.db
        var settings = try SettingsRow.current(db)
        if let code = request.baseCurrency {
            let currency = try InputRules.currency(code, field: .body("baseCurrency"))
            if let current = settings.baseCurrency, current != currency.code, try TransactionRow.any(db) {
                // Stored base amounts are in the old base currency; changing it needs them
                // re-converted, which needs the rates engine. Refuse rather than mix currencies.
                throw LedgerError.conflict("the base currency cannot change from \(current) to \(currency.code) once transactions exist: their base amounts are in \(current)", field: .body("baseCurrency"))
            }
            settings.baseCurrency = currency.code
        }
        if let mode = request.exchangeMode { settings.exchangeMode = mode.rawValue }
        for (value, field, column) in [(request.priceRefreshIntervalMinutes, "priceRefreshIntervalMinutes", \SettingsRow.priceRefreshMinutes),
                                       (request.staleFiatMinutes, "staleFiatMinutes", \SettingsRow.staleFiatMinutes),
                                       (request.staleCryptoMinutes, "staleCryptoMinutes", \SettingsRow.staleCryptoMinutes),
                                       (request.staleEquityMinutes, "staleEquityMinutes", \SettingsRow.staleEquityMinutes)] {
            guard let minutes = value else { continue }
            guard (1...10_080).contains(minutes) else {
                throw LedgerError.invalid("body.\(field) must be between 1 and 10080 (a week), got \(minutes)", field: .body(field))
            }
            settings[keyPath: column] = minutes
        }
        if let points = request.allocationDriftPoints {
            guard (1...100).contains(points) else {
                throw LedgerError.invalid("body.allocationDriftPoints must be between 1 and 100 percentage points, got \(points)", field: .body("allocationDriftPoints"))
            }
            settings.allocationDriftPoints = points
        }
        if let groups = request.speculativeGroups {
            settings.speculativeGroups = try speculativeGroups(groups)
        }
        if let sync = request.cloudSync { settings.cloudSync = sync }
        if let notifications = request.notifications {
            settings.notifyBudget = notifications.budgetAlerts
            settings.notifyGoals = notifications.goalAlerts
            settings.notifyRates = notifications.rateAlerts
            settings.notifyRecurring = notifications.recurringReminders
        }
        return try save(settings, .settingsUpdated, &context)
    }

    static func save(_ request: SetupSaveRequest, _ context: inout WriteContext) throws -> SettingsRecord {
        let progress = request.progress
        guard (1...5).contains(progress.step) else {
            throw LedgerError.invalid("body.progress.step must be 1 to 5, got \(progress.step)", field: .body("progress").member("step"))
        }
        if let code = progress.baseCurrency { _ = try InputRules.currency(code, field: .body("progress").member("baseCurrency")) }
        var settings = try SettingsRow.current(context.db)
        settings.onboardingProgress = String(decoding: try MessageCoding.encode(progress), as: UTF8.self)
        return try save(settings, .settingsUpdated, &context)
    }

    static func complete(_ request: SetupCompleteRequest, _ context: inout WriteContext) throws -> SettingsRecord {
        guard try !isSetupCompleted(context.db) else {
            throw LedgerError.conflict("Ledgerly is already set up; change settings with settings.update (`ledgerly settings set`)")
        }
        let currency = try InputRules.currency(request.baseCurrency, field: .body("baseCurrency"))
        var settings = try SettingsRow.current(context.db)
        settings.baseCurrency = currency.code
        settings.exchangeMode = request.exchangeMode.rawValue
        settings.cloudSync = request.cloudSync
        settings.onboardingCompleted = true
        settings.onboardingProgress = nil
        return try save(settings, .setupCompleted, &context)
    }

    /// Stores the changed settings with the time of the write and records the change.
    /// The speculative groups, checked and stored as a JSON array: each 1...100 characters,
    /// exactly as given (groups are compared exactly), at most 50, no repeats.
    private static func speculativeGroups(_ groups: [String]) throws -> String {
        let field = FieldPath.body("speculativeGroups")
        guard groups.count <= 50 else { throw LedgerError.invalid("\(field) lists at most 50 groups, got \(groups.count)", field: field) }
        for (index, group) in groups.enumerated() {
            guard !group.isEmpty, group.count <= 100 else { throw LedgerError.invalid("\(field[index]) must be 1 to 100 characters", field: field[index]) }
            guard !groups[..<index].contains(group) else { throw LedgerError.invalid("\(field[index]) repeats '\(group)'", field: field[index]) }
        }
        return String(decoding: try MessageCoding.encoder().encode(groups), as: UTF8.self)
    }

    private static func save(_ settings: SettingsRow, _ type: ChangeEventType, _ context: inout WriteContext) throws -> SettingsRecord {
        var settings = settings
        settings.updatedAt = context.now
        try settings.update(context.db)
        let record = settings.record
        try context.record(type, id: "settings", data: record)
        return record
    }
}
