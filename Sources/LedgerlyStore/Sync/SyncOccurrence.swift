import Foundation
import GRDB
import LedgerlyProtocol

/// Work every device's schedule may do, and two devices do while apart: a recurring template's
/// occurrence (the rent), a goal's monthly auto-fund. Both devices give what the work makes (the
/// posted transaction, the transfer that funds the goal) the same global id, derived from what
/// the work is (the template's or goal's global id and the date or month), so the two become one
/// when they meet; and a device that already has it from another (or had it deleted) does not do
/// it again.
struct SyncOccurrence {
    let gid: String
    private let thing: any SyncedThing.Type
    private let identities: SyncIdentities

    /// Occurrence `date` of template `recurringId`, the transaction it posts; nil when sync is
    /// off on this device.
    static func recurring(_ db: Database, recurringId: Int64, date: String, now: Date) throws -> SyncOccurrence? {
        try SyncOccurrence(db, making: TransactionSync.self, now: now) { "\(try $0.gid(RecurringSync.self, localId: recurringId)):\(date)" }
    }

    /// Goal `goalId`'s auto-fund of `month`, the transfer that moves its money (its contribution
    /// derives the same id, `GoalContributionSync`); nil when sync is off on this device.
    static func autoFund(_ db: Database, goalId: Int64, month: String, now: Date) throws -> SyncOccurrence? {
        try SyncOccurrence(db, making: TransferSync.self, now: now) {
            GoalContributionSync.autoFundGid(goal: try $0.gid(GoalSync.self, localId: goalId), month: month)
        }
    }

    private init?(_ db: Database, making thing: any SyncedThing.Type, now: Date, gid: (SyncIdentities) throws -> String) throws {
        let state = try SyncStateRow.current(db)
        guard state.enabled, state.deviceId != nil else { return nil }
        self.thing = thing
        identities = try SyncIdentities(db: db, state: state, date: now)
        self.gid = try gid(identities)
        try identities.save()
    }

    /// Whether this device has it already, or had it and it was deleted.
    func isKnown() throws -> Bool {
        try SyncIdentityRow.find(identities.db, entity: thing.entity, gid: gid) != nil
    }

    /// Gives what was just made for it (by its local id) its global id.
    func claim(localId: Int64) throws {
        try identities.claim(thing, gid: gid, localId: localId)
    }
}
