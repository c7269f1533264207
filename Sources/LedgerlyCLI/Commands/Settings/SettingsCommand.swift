import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `ledgerly settings show|set`: the values `ledgerly setup` chose, and a few more.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show or change settings.", subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    /// `sync`: the store's sync state, which says whether this device syncs; the `cloudSync`
    /// setting is only the wish setup recorded (issue 44, C4).
    static func details(_ settings: SettingsRecord, sync: SyncStatusReply?, home: String) -> String {
        var list = DetailList()
        list.add("Base currency", settings.baseCurrency ?? "(not chosen; run `ledgerly setup`)")
        list.add("Exchange mode", "\(settings.exchangeMode.rawValue): \(settings.exchangeMode.summary)")
        list.add("Price refresh", "every \(settings.priceRefreshIntervalMinutes) minutes")
        list.add("Stale after", "\(settings.staleFiatMinutes) minutes (currencies), \(settings.staleCryptoMinutes) minutes (crypto), \(settings.staleEquityMinutes) minutes (other assets)")
        list.add("Allocation drift", "\(settings.allocationDriftPoints) percentage points")
        // A label no longer than the others, so the list keeps its alignment.
        list.add("Speculative", settings.speculativeGroups.isEmpty ? "no allocation group" : "allocation groups " + settings.speculativeGroups.joined(separator: ", "))
        if let sync, sync.state != "off" {
            list.add("Sync", "on (\(sync.state); `ledgerly sync status`)")
        } else {
            list.add("Sync", settings.cloudSync ? "off (wanted at setup: `ledgerly sync enable`)" : "off")
        }
        let n = settings.notifications
        list.add("Notifications", "budgets \(n.budgetAlerts ? "on" : "off"), goals \(n.goalAlerts ? "on" : "off"), rates \(n.rateAlerts ? "on" : "off"), recurring \(n.recurringReminders ? "on" : "off")")
        list.add("Setup", settings.onboardingCompleted ? "completed" : "not completed" + (settings.onboardingProgress.map { " (paused at step \($0.step) of 5)" } ?? ""))
        list.add("Data", home)
        list.add("Updated", settings.updatedAt)
        return list.render()
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the settings.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { SettingsCommand.wording }

        func reply(from gateway: Gateway) throws -> SettingsRecord {
            return try gateway.call(SettingsGetRequest())
        }

        func render(_ settings: SettingsRecord, gateway: Gateway) throws {
            print(SettingsCommand.details(settings, sync: try? gateway.call(SyncStatusRequest()), home: gateway.home.root.path), terminator: "")
        }
    }

    struct Set: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Change settings (only what you pass).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(name: .customLong("base-currency"), help: "Currency reports and budgets are totalled in.") var baseCurrency: String?
        @Option(name: .customLong("exchange-mode"), help: "official, parallel or manual.") var exchangeMode: ExchangeMode?
        @Option(name: .customLong("price-refresh-minutes"), help: "How often rates and prices refresh (1-10080).") var priceRefreshMinutes: Int?
        @Option(name: .customLong("stale-fiat-minutes"), help: "A currency rate older than this is marked stale (1-10080, default 60).") var staleFiatMinutes: Int?
        @Option(name: .customLong("stale-crypto-minutes"), help: "A crypto price older than this is marked stale (1-10080, default 15).") var staleCryptoMinutes: Int?
        @Option(name: .customLong("stale-equity-minutes"), help: "A price of a share, fund or bond older than this is marked stale (1-10080, default 60).") var staleEquityMinutes: Int?
        @Option(name: .customLong("drift-points"), help: "An allocation target drifts when actual and target differ by more than this many percentage points (default 5).") var driftPoints: Int?
        @Option(name: .customLong("speculative-groups"),
                help: ArgumentHelp("Allocation groups whose holdings are speculative, comma-separated (default speculative; '' for none).",
                                   discussion: "Their holdings are left out of core net worth and counted as volatile. Names are compared exactly, case included.",
                                   valueName: "groups"))
        var speculativeGroups: String?
        /// Kept only to point to `sync enable` and `sync disable`: setting the wish alone said
        /// "Sync: on" while nothing synced (issue 45 item 16, D422).
        @Option(help: "Not set here: `ledgerly sync enable` turns sync on (it connects to the hub), `ledgerly sync disable` off.") var sync: Switch?
        @Option(name: .customLong("budget-alerts"), help: "on or off.") var budgetAlerts: Switch?
        @Option(name: .customLong("goal-alerts"), help: "on or off.") var goalAlerts: Switch?
        @Option(name: .customLong("rate-alerts"), help: "on or off.") var rateAlerts: Switch?
        @Option(name: .customLong("recurring-reminders"), help: "on or off.") var recurringReminders: Switch?

        func validate() throws {
            if let sync {
                throw ValidationError(sync.isOn
                    ? "--sync on: sync is turned on with `ledgerly sync enable --url postgres://… --passphrase-file FILE`, which connects to the hub and starts syncing; settings cannot turn it on"
                    : "--sync off: sync is turned off with `ledgerly sync disable`, which stops it and keeps every local record; settings cannot turn it off")
            }
            let given: [Any?] = [baseCurrency, exchangeMode, priceRefreshMinutes, staleFiatMinutes, staleCryptoMinutes, staleEquityMinutes, driftPoints, speculativeGroups, sync, budgetAlerts, goalAlerts, rateAlerts, recurringReminders]
            if given.allSatisfy({ $0 == nil }) { throw ValidationError("nothing to change: pass at least one option (see --help)") }
        }

        /// "core, speculative" → ["core", "speculative"]: split at commas, spaces around a name
        /// dropped (a group named with inner spaces keeps them); "" is no group at all.
        static func groups(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }

        var wording: FieldWording { SettingsCommand.wording }

        func reply(from gateway: Gateway) throws -> SettingsRecord {
            var notifications: NotificationSettings?
            if budgetAlerts != nil || goalAlerts != nil || rateAlerts != nil || recurringReminders != nil {
                var current = try gateway.call(SettingsGetRequest()).notifications
                if let budgetAlerts { current.budgetAlerts = budgetAlerts.isOn }
                if let goalAlerts { current.goalAlerts = goalAlerts.isOn }
                if let rateAlerts { current.rateAlerts = rateAlerts.isOn }
                if let recurringReminders { current.recurringReminders = recurringReminders.isOn }
                notifications = current
            }
            return try gateway.call(SettingsUpdateRequest(
                baseCurrency: baseCurrency, exchangeMode: exchangeMode, priceRefreshIntervalMinutes: priceRefreshMinutes,
                staleFiatMinutes: staleFiatMinutes, staleCryptoMinutes: staleCryptoMinutes, staleEquityMinutes: staleEquityMinutes,
                allocationDriftPoints: driftPoints, speculativeGroups: speculativeGroups.map(Set.groups), cloudSync: nil, notifications: notifications))
        }

        func render(_ settings: SettingsRecord, gateway: Gateway) throws {
            print(SettingsCommand.details(settings, sync: try? gateway.call(SyncStatusRequest()), home: gateway.home.root.path), terminator: "")
        }
    }
}

extension SettingsCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["priceRefreshIntervalMinutes": "--price-refresh-minutes", "cloudSync": "--sync", "allocationDriftPoints": "--drift-points"]
}
