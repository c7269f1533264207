import Foundation
import GRDB
import LedgerlyProtocol

/// A recurring template's occurrence, which every device's schedule may post: while apart, two
/// devices post the same rent. Both give the posted transaction the same global id, the
/// template's global id and the date, so the two become one when they meet; and a device that
/// already has the occurrence from another (or had it deleted) does not post it again.
struct SyncOccurrence {
    let gid: String
    private let identities: SyncIdentities

    /// Occurrence `date` of template `recurringId`; nil when sync is off on this device.
    init?(_ db: Database, recurringId: Int64, date: String, now: Date) throws {
        let state = try SyncStateRow.current(db)
        guard state.enabled, state.deviceId != nil else { return nil }
        identities = try SyncIdentities(db: db, state: state, date: now)
        gid = "\(try identities.gid(RecurringSync.self, localId: recurringId)):\(date)"
        try identities.save()
    }

    /// Whether this device has it already, or had it and it was deleted.
    func isKnown() throws -> Bool {
        try SyncIdentityRow.find(identities.db, entity: TransactionSync.entity, gid: gid) != nil
    }

    /// Gives the transaction just posted for it its global id.
    func claim(transactionId: Int64) throws {
        try identities.claim(TransactionSync.self, gid: gid, localId: transactionId)
    }
}
