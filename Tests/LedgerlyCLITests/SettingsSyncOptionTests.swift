import ArgumentParser
@testable import LedgerlyCLI
import Testing

/// Issue 45, item 16: `settings set --sync on` said "Sync: on" while nothing synced. Sync is
/// turned on and off by `ledgerly sync enable` and `sync disable` alone (they connect to the hub
/// and keep the credentials); the setting is refused before anything is sent, pointing there (D422).
@Suite struct SettingsSyncOptionTests {
    @Test(arguments: [("on", "ledgerly sync enable"), ("off", "ledgerly sync disable")])
    func syncIsNotASettingToSet(value: String, pointer: String) {
        #expect {
            _ = try LedgerlyCommand.parseAsRoot(["settings", "set", "--sync", value])
        } throws: { error in
            let message = LedgerlyCommand.message(for: error)
            return LedgerlyCommand.exitCode(for: error).rawValue == 64 && message.contains(pointer) && message.contains("--sync")
        }
    }

    @Test func theOtherSettingsAreStillSet() throws {
        let parsed = try LedgerlyCommand.parseAsRoot(["settings", "set", "--budget-alerts", "off"])
        #expect(parsed is SettingsCommand.Set)
    }
}
