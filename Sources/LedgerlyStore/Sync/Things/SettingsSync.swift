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
///
/// The allocation targets are one field too, by dimension then key: targets must add up to at
/// most 100 %, which targets merged key by key from two devices need not (D312). Whether a
/// target is drifting is each device's alert state, not synced.
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
        /// Dimension (`group`, `assetType`) → key → percent.
        var allocationTargets: [String: [String: String]]?
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
            onboardingCompleted: record.onboardingCompleted, rateProfiles: try rateProfiles(db, identities: identities),
            allocationTargets: try allocationTargets(db), updatedAt: record.updatedAt))
    }

    private static func allocationTargets(_ db: Database) throws -> [String: [String: String]] {
        var targets: [String: [String: String]] = [:]
        for row in try AllocationTargetRow.all(db) {
            targets[row.dimension, default: [:]][row.key] = row.percent
        }
        return targets
    }

    /// Each dimension's targets made those given, checked as `invest.allocation.set` checks them;
    /// a target kept keeps its drift state.
    private static func writeAllocationTargets(_ targets: [String: [String: String]], _ context: inout WriteContext) throws {
        let db = context.db
        let field = FieldPath.body("messages")
        for dimension in AllocationDimension.allCases {
            // Checked as `invest.allocation.set` checks them, and kept as it stores them.
            var given: [String: String] = [:]
            var total: Int64 = 0
            for (typed, percent) in targets[dimension.rawValue] ?? [:] {
                let key = try InputRules.name(typed, field: field)
                guard key.count <= AllocationHandlers.maximumKeyLength, dimension != .assetType || AssetType(rawValue: key) != nil else {
                    throw LedgerError.invalid("a synced \(dimension.rawValue) target '\(key)' is not one this device takes", field: field)
                }
                guard !given.keys.contains(where: { SyncNames.foldedAZ($0) == SyncNames.foldedAZ(key) }) else {
                    throw LedgerError.invalid("the synced \(dimension.rawValue) targets name '\(key)' twice", field: field)
                }
                let hundredths = try AllocationHandlers.percent(percent, field: field)
                total += hundredths
                given[key] = AllocationHandlers.percentText(hundredths)
            }
            guard total <= 10_000 else { throw LedgerError.invalid("the synced \(dimension.rawValue) targets add up to more than 100 %", field: field) }
            let before = try AllocationTargetRow.of(db, dimension: dimension.rawValue)
            let stored = Dictionary(before.map { ($0.key, $0.percent) }, uniquingKeysWith: { first, _ in first })
            guard stored != given else { continue }
            // Drift state by key, as the table compares keys (A–Z folded).
            let state = Dictionary(before.map { (SyncNames.foldedAZ($0.key), ($0.drifting, $0.episode)) }) { first, _ in first }
            try AllocationTargetRow.removeAll(db, dimension: dimension.rawValue)
            for (key, percent) in given.sorted(by: { $0.key < $1.key }) {
                let (drifting, episode) = state[SyncNames.foldedAZ(key)] ?? (false, 0)
                try AllocationTargetRow(dimension: dimension.rawValue, key: key, percent: percent, drifting: drifting, episode: episode).insert(db)
            }
            try context.record(.allocationUpdated, id: dimension.rawValue, data: try AllocationHandlers.allocation(dimension, db: db, now: context.date))
        }
    }

    private static func rateProfiles(_ db: Database, identities: SyncIdentities) throws -> [String: String] {
        var profiles: [String: String] = [:]
        for profile in try RateProfileRow.defaults(db) {
            profiles[profile.type] = try identities.gid(RateProfileSync.self, localId: profile.id)
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
            if let current = settings.baseCurrency, current != currency.code, try TransactionRow.any(db) {
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
                  try RateProfileRow.type(db, id: id) == mode else {
                identities.notices.append("the rate profile another device uses for \(mode) rates is not here: this device keeps its own choice for \(mode)")
                continue
            }
            let changed = try RateProfileRow.changedByDefault(db, type: mode, id: id)
            try RateProfileRow.makeDefault(db, id: id, type: mode)
            for profile in changed {
                try context.record(.rateProfileUpdated, id: String(profile), data: try RateHandlers.profile(db, id: profile, field: field))
            }
        }
        if let targets = fields.allocationTargets { try writeAllocationTargets(targets, &context) }
        try context.record(completing ? .setupCompleted : .settingsUpdated, id: "settings", data: settings.record)
        return 1
    }

    static func delete(localId: Int64, _ context: inout WriteContext) throws -> String? {
        "the settings cannot be deleted"
    }
}
