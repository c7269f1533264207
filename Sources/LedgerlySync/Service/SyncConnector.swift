import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// `sync.connect`: reaches the hub, makes or joins its ledger, keeps the credentials, and turns
/// sync on in the store.
///
/// The order matters for "nothing mixed": the passphrase is checked against the hub ledger's key
/// check before anything is written here; the store is told next (it refuses a join when this
/// device holds a ledger of its own); the credentials are written last, so a refused join leaves
/// no credentials behind.
struct SyncConnector: Sendable {
    let home: LedgerlyHome
    let store: AsyncRequestClient
    let cost: KDFParameters.Cost
    let logger: Logger

    /// Refusals are error replies with a code and the field at fault (a wrong passphrase names
    /// `body.passphrase`); a hub that cannot be reached is `unavailable`.
    func connect(_ request: SyncConnectRequest) async throws -> SyncStatusReply {
        do {
            return try await connecting(request)
        } catch let error as HubAddressError {
            throw ErrorBody.validation("body.url is not a hub address: \(error)", field: "body.url")
        } catch let error as HubError {
            throw ErrorBody(code: .unavailable, message: "the hub did not answer as it should: \(error)")
        } catch let error as SyncCryptoError {
            throw ErrorBody.validation("\(error)", field: "body.passphrase")
        } catch let error as CredentialsError {
            throw ErrorBody(code: .internal, message: "the sync credentials could not be written: \(error)")
        }
    }

    private func connecting(_ request: SyncConnectRequest) async throws -> SyncStatusReply {
        let address = try HubAddress(parsing: request.url)
        guard !request.passphrase.isEmpty else { throw ErrorBody.validation("body.passphrase must not be empty", field: "body.passphrase") }
        let hub = HubClient(address: address, logger: logger)
        defer { Task { await hub.close() } }
        try await hub.ensureSchema()
        // A retired ledger is no longer offered (D480): a device joins the one that replaced it.
        // Which ledgers are retired is first the hub's say (its clear column); a ledger is hidden
        // for good only once its retirement record opens with that ledger's key (D533, below).
        let retirements = try await hub.retirements()
        let claimed = Dictionary(retirements.map { ($0.ledgerId, $0) }, uniquingKeysWith: { first, _ in first })
        let allLedgers = try await hub.ledgers()
        let ledgers = allLedgers.filter { claimed[$0.id] == nil }
        let previous = try? SyncCredentials.load(home: home.root)
        // This device's old ledger retired by a rekey, as its retirement record says when opened
        // with the old key: the re-join keeps this device's things and sends them again (D481).
        let rejoining = previous.flatMap { old in
            retirements.first { $0.ledgerId == old.ledgerId }.flatMap {
                try? LedgerRetirement.open($0.sealed, key: old.key, retired: old.ledgerId, successor: $0.successorId)
            }
        }

        let ledger: HubLedger
        let key: LedgerKey
        let mode: SyncEnableMode
        if let wanted = request.ledgerId {
            guard let id = UUID(uuidString: wanted), let found = allLedgers.first(where: { $0.id == id }) else {
                throw ErrorBody.notFound("the hub has no ledger \(wanted); it has \(Self.list(ledgers))", field: "body.ledgerId")
            }
            (ledger, key) = try Self.open(found, passphrase: request.passphrase)
            try Self.refuseIfRetired(ledger, key: key, claimed: claimed[ledger.id], logger: logger)
            mode = request.merge == true ? .merge : .join
        } else if ledgers.isEmpty, !claimed.isEmpty {
            // Every ledger is retired by the hub's say (a loop, or a ledger retired in favour of
            // itself): an honest chain ends in a ledger that is not. Join the one the passphrase
            // opens unless its retirement is verified (D533).
            (ledger, key) = try Self.openClaimed(allLedgers, passphrase: request.passphrase, claimed: claimed, logger: logger)
            mode = request.merge == true ? .merge : .join
        } else if ledgers.isEmpty {
            // A new ledger's key check goes to the hub, where guesses can be tried offline: only a
            // strong passphrase (D434). Joining keeps whatever the ledger was made with.
            try PassphraseStrength.check(request.passphrase)
            let parameters = try KDFParameters.newLedger(cost: cost)
            let id = UUID()
            key = try LedgerKey.derive(passphrase: request.passphrase, parameters: parameters)
            ledger = HubLedger(id: id, kdf: parameters, keyCheck: key.makeKeyCheck(ledgerId: id))
            try await hub.createLedger(ledger)
            mode = .create
        } else if ledgers.count == 1 {
            do {
                (ledger, key) = try Self.open(ledgers[0], passphrase: request.passphrase)
            } catch SyncCryptoError.wrongPassphrase where !claimed.isEmpty {
                // The passphrase may open a ledger the hub says is retired: joined when that
                // retirement does not open with the ledger's key (a forged column), refused with
                // what replaced it when it does (D533).
                (ledger, key) = try Self.openClaimed(allLedgers.filter { claimed[$0.id] != nil }, passphrase: request.passphrase, claimed: claimed, logger: logger)
            }
            mode = request.merge == true ? .merge : .join
        } else {
            throw ErrorBody.validation("the hub holds \(ledgers.count) ledgers: name the one to join (\(Self.list(ledgers)))", field: "body.ledgerId")
        }
        let (deviceId, enableMode, named) = Self.enabling(ledger.id, previous: previous.map { ($0.ledgerId, $0.deviceId) },
                                                          successor: rejoining?.successorLedgerId, mode: mode)
        let status = try await store.call(SyncEnableRequest(
            ledgerId: ledger.id.uuidString.lowercased(), deviceId: deviceId.uuidString.lowercased(), hub: address.redacted, mode: enableMode))
        try SyncCredentials(hub: address, ledgerId: ledger.id, deviceId: deviceId, key: key).save(home: home.root)
        // The retirement this re-join followed, verified with the old key, for `sync devices` (D533).
        if let rejoining, rejoining.successorLedgerId == ledger.id { try VerifiedRetirements.add(rejoining, home: home.root) }
        logger.info("sync enabled", metadata: ["hub": "\(address.redacted)", "ledger": "\(ledger.id)", "mode": "\(named)"])
        return status
    }

    /// The device id and store mode for joining `ledger`. The same ledger again: this device
    /// keeps its id, so its clock and messages carry on. A re-join after a rekey keeps it too and
    /// sends its whole ledger into the new one, but only into the ledger the verified retirement
    /// names (`successor`): any other ledger the user names is joined as any ledger is, with
    /// `mode` (`--merge` or not), never filled with this device's ledger unasked (D481).
    static func enabling(_ ledger: UUID, previous: (ledgerId: UUID, deviceId: UUID)?, successor: UUID?, mode: SyncEnableMode)
        -> (deviceId: UUID, mode: SyncEnableMode, named: String) {
        guard let previous else { return (UUID(), mode, mode.rawValue) }
        if previous.ledgerId == ledger { return (previous.deviceId, .merge, "resume") }
        if successor == ledger { return (previous.deviceId, .rekey, "rejoin") }
        return (UUID(), mode, mode.rawValue)
    }

    /// Refuses `ledger` when the hub's retirement of it opens with its key (a rekey replaced it:
    /// join the successor with the new passphrase). One that does not open is not believed: the
    /// hub's column alone never hides a ledger (D533).
    static func refuseIfRetired(_ ledger: HubLedger, key: LedgerKey, claimed: HubRetirement?, logger: Logger) throws {
        guard let claimed else { return }
        do {
            let record = try LedgerRetirement.open(claimed.sealed, key: key, retired: ledger.id, successor: claimed.successorId)
            throw ErrorBody(code: .conflict, message: "ledger \(ledger.id.uuidString.lowercased()) was retired by a rekey; ledger \(record.successorLedgerId.uuidString.lowercased()) replaces it: enable sync with the new passphrase")
        } catch let error as SyncCryptoError {
            logger.warning("hub retirement record not believed: the ledger is joined", metadata: ["ledger": "\(ledger.id)", "error": "\(error)"])
        }
    }

    /// The first of `candidates` the passphrase opens whose retirement is not verified (see
    /// `refuseIfRetired`); a wrong passphrase when it opens none.
    static func openClaimed(_ candidates: [HubLedger], passphrase: String, claimed: [UUID: HubRetirement], logger: Logger) throws -> (HubLedger, LedgerKey) {
        for candidate in candidates.reversed() {
            guard let opened = try? open(candidate, passphrase: passphrase) else { continue }
            try refuseIfRetired(opened.0, key: opened.1, claimed: claimed[candidate.id], logger: logger)
            return opened
        }
        throw SyncCryptoError.wrongPassphrase
    }

    /// The ledger's key from the passphrase, checked: a wrong passphrase is refused before
    /// anything is sent or received.
    private static func open(_ ledger: HubLedger, passphrase: String) throws -> (HubLedger, LedgerKey) {
        let key = try LedgerKey.derive(passphrase: passphrase, parameters: ledger.kdf)
        try key.verify(keyCheck: ledger.keyCheck, ledgerId: ledger.id)
        return (ledger, key)
    }

    private static func list(_ ledgers: [HubLedger]) -> String {
        ledgers.isEmpty ? "none" : ledgers.map { $0.id.uuidString.lowercased() }.joined(separator: ", ")
    }
}
