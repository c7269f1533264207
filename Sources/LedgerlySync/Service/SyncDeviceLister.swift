import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// `sync.devices`: the devices the hub has seen in this device's ledger and in the ledgers it
/// replaced, newest ledger first (D483). The chain of ledgers is followed backwards through the
/// hub's retirements; what the hub says of contacts and positions is shown as it says it (it is
/// metadata the hub keeps in clear, not sealed).
///
/// Which ledger was retired and which devices were named with `--retire` is believed only from a
/// retirement record opened with the retired ledger's key (D533): this ledger's, opened with the
/// key this device holds, or one this device verified while it held the old key
/// (`VerifiedRetirements`). A retirement the hub lists that this device cannot open is shown
/// `unverified`, and its devices are not marked retired; one of this device's own ledger that
/// does not open with its key is not believed at all (the ledger stays current).
struct SyncDeviceLister: Sendable {
    let home: LedgerlyHome
    let logger: Logger

    func devices() async throws -> SyncDevicesReply {
        guard let credentials = try SyncCredentials.load(home: home.root) else {
            throw ErrorBody(code: .conflict, message: "sync is not set up on this device (`ledgerly sync enable`)")
        }
        let hub = HubClient(address: credentials.hub, logger: logger)
        defer { Task { await hub.close() } }
        do {
            try await hub.ensureSchema()
            let kept = (try? VerifiedRetirements.load(home: home.root)) ?? []
            let verified = Self.verified(try await hub.retirements(), credentials: credentials, kept: kept)
            // This ledger's retirement that does not open with its key is not believed (D533).
            let retirements = verified.claimed.filter { $0.ledgerId != credentials.ledgerId || verified.records[$0.ledgerId] != nil }
            let ledgers = Self.ledgers(of: credentials.ledgerId, retirements: retirements)
            let named = Set(ledgers.compactMap { verified.records[$0] }.flatMap(\.retiredDevices))
            let retiredLedgers = Set(retirements.map(\.ledgerId))
            let rows = try await hub.devices(ledgerIds: ledgers)
            let order = Dictionary(uniqueKeysWithValues: ledgers.enumerated().map { ($1, $0) })
            let devices = rows.sorted { (order[$0.ledgerId] ?? 0, $0.deviceId.uuidString) < (order[$1.ledgerId] ?? 0, $1.deviceId.uuidString) }.map { row in
                SyncDevice(deviceId: row.deviceId.uuidString.lowercased(), ledgerId: row.ledgerId.uuidString.lowercased(),
                           ledger: retiredLedgers.contains(row.ledgerId) ? "retired" : "current",
                           firstContact: row.firstContact.map(Timestamp.string(from:)), lastContact: row.lastContact.map(Timestamp.string(from:)),
                           pulledSeq: row.pulledSeq, lastSentSeq: row.lastSentSeq, retired: named.contains(row.deviceId),
                           thisDevice: row.deviceId == credentials.deviceId,
                           retirement: retiredLedgers.contains(row.ledgerId) ? (verified.records[row.ledgerId] != nil ? "verified" : "unverified") : nil)
            }
            return SyncDevicesReply(ledgerId: credentials.ledgerId.uuidString.lowercased(), devices: devices)
        } catch {
            // Every step in the `do` is a hub call: `error` is a `HubError`.
            throw ErrorBody(code: .unavailable, message: "the hub did not answer as it should: \(error)")
        }
    }

    /// The hub's retirements, and the records among them that are verified, by retired ledger: a
    /// record kept from when this device held that ledger's key and naming the same successor, or
    /// this ledger's, opened now with this device's key. Only a verified record's own list of
    /// retired devices counts, never the hub's clear column.
    static func verified(_ claimed: [HubRetirement], credentials: SyncCredentials, kept: [LedgerRetirement])
        -> (claimed: [HubRetirement], records: [UUID: LedgerRetirement]) {
        var records: [UUID: LedgerRetirement] = [:]
        for row in claimed where records[row.ledgerId] == nil {
            if let record = kept.first(where: { $0.retiredLedgerId == row.ledgerId && $0.successorLedgerId == row.successorId }) {
                records[row.ledgerId] = record
            } else if row.ledgerId == credentials.ledgerId,
                      let record = try? LedgerRetirement.open(row.sealed, key: credentials.key, retired: row.ledgerId, successor: row.successorId) {
                records[row.ledgerId] = record
            }
        }
        return (claimed, records)
    }

    /// The ledgers to list, newest first, each once: the one that replaced this device's ledger
    /// (a rekey elsewhere, not re-joined yet), this ledger, then the one it replaced, and so on.
    /// The hub's rows are not verified here, so a hostile hub's loop (a ledger retired in favour
    /// of itself, or two retired in favour of each other) must neither hang nor name a ledger
    /// twice (which trapped `Dictionary(uniqueKeysWithValues:)` and stopped ledgerly-sync).
    static func ledgers(of ledgerId: UUID, retirements: [HubRetirement]) -> [UUID] {
        var chain = [ledgerId]
        while let previous = retirements.first(where: { $0.successorId == chain.last! }), !chain.contains(previous.ledgerId) {
            chain.append(previous.ledgerId)
        }
        guard let successor = retirements.first(where: { $0.ledgerId == ledgerId })?.successorId, !chain.contains(successor) else { return chain }
        return [successor] + chain
    }
}
