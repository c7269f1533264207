import GRDB
import LedgerlyProtocol

/// An alert's key names what it is about by local id (`goal:3:50`, `budget:2:2026-11:80`,
/// `recurring:5:2026-11-01`, `rate-stale:1:USD/EUR:…`), which is how each device's alerts service finds an alert already
/// raised. Two devices may number one goal differently (each made one while apart), so the key
/// travels with the global id in place of the local one (`goal:<goal gid>:50`) and each device
/// writes it back with its own local id: the same milestone is one alert everywhere, and no
/// device takes another thing's alert for its own (D313).
enum SyncAlertKey {
    /// The kind whose local id is the second part of a key with this first part.
    private static func kind(_ prefix: Substring) -> (any SyncedThing.Type)? {
        switch prefix {
        case "budget": BudgetSync.self
        case "goal": GoalSync.self
        case "recurring": RecurringSync.self
        case "rate-stale": RateProfileSync.self
        default: nil
        }
    }

    /// The key as it travels: the local id replaced by the thing's global id. A key that names no
    /// synced thing (an allocation drift's, or a thing deleted since) travels as it is.
    static func global(_ key: String, identities: SyncIdentities) throws -> String {
        let parts = key.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let kind = kind(parts[0]), let id = Int64(parts[1]),
              let gid = try SyncIdentityRow.find(identities.db, entity: kind.entity, localId: id)?.gid else { return key }
        return "\(parts[0]):\(gid):\(parts[2])"
    }

    /// The key with this device's local id: the inverse of `global`. A key whose thing this
    /// device does not have is refused (the alert is left out here, with a notice).
    static func local(_ key: String, identities: SyncIdentities) throws -> String {
        let parts = key.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = kind(parts[0]), Int64(parts[1].prefix { $0 != ":" }) == nil else { return key }
        // A budget's global id has a colon of its own (`budget:<category gid>`), a profile's two
        // (`profile:<type>:<name>`; a profile's name has no colon).
        let idParts = parts[0] == "budget" ? 2 : parts[0] == "rate-stale" ? 3 : 1
        let rest = parts[1].split(separator: ":", maxSplits: idParts, omittingEmptySubsequences: false)
        guard rest.count == idParts + 1 else { return key }
        let gid = rest.prefix(idParts).joined(separator: ":")
        let id = try identities.localId(kind, gid: gid, field: "key")
        return "\(parts[0]):\(id):\(rest[idParts])"
    }
}
