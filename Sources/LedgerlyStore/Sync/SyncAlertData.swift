import GRDB
import LedgerlyProtocol

/// An alert's data names other records by local id (`transactionId`, `goalId`, `budgetId`,
/// `categoryId`, `recurringId`, `profileId`), which name another record, or none, on another
/// device (issue 44, C3). Like the key (`SyncAlertKey`), the data travels with each such id
/// replaced by the thing's global id (a JSON string) and every device writes it back with its own
/// local id (D442).
///
/// A thing the raising device has no global id for (deleted before the alert was stamped) travels
/// as null, and so does one the receiving device does not have (it was deleted here, a delete
/// being final): a number that named another record would be worse than none. Both devices then
/// hold null, so the alert is not stamped again.
enum SyncAlertData {
    /// The members that hold a local id, and the kind each names.
    static var members: [(key: String, kind: any SyncedThing.Type)] {
        [("transactionId", TransactionSync.self), ("goalId", GoalSync.self), ("budgetId", BudgetSync.self), ("categoryId", CategorySync.self),
         ("recurringId", RecurringSync.self), ("profileId", RateProfileSync.self)]
    }

    /// The data as it travels: local ids replaced by global ids.
    static func global(_ data: JSONValue?, identities: SyncIdentities) throws -> JSONValue? {
        guard case .object(var object) = data else { return data }
        for (key, kind) in members {
            guard case .integer(let id) = object[key] else { continue }
            object[key] = try gid(kind, localId: id, identities: identities).map(JSONValue.string) ?? .null
        }
        return .object(object)
    }

    /// The data with this device's local ids: the inverse of `global`.
    static func local(_ data: JSONValue?, identities: SyncIdentities) throws -> JSONValue? {
        guard case .object(var object) = data else { return data }
        for (key, kind) in members {
            guard case .string(let gid) = object[key] else { continue }
            let row = try SyncIdentityRow.find(identities.db, entity: kind.entity, gid: gid)
            object[key] = row?.localId.map(JSONValue.integer) ?? .null
        }
        return .object(object)
    }

    /// The global id of a thing that exists here (stamped first when it has none yet), else nil.
    private static func gid(_ kind: any SyncedThing.Type, localId: Int64, identities: SyncIdentities) throws -> String? {
        guard try SyncIdentityRow.find(identities.db, entity: kind.entity, localId: localId) != nil
                || kind.fields(identities.db, id: localId, identities: identities) != nil else { return nil }
        // Through `gid`: a claimed id not sent yet (a posted occurrence) is sent first.
        return try identities.gid(kind, localId: localId)
    }
}
