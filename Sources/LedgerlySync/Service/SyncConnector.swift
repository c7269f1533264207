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
        let retirements = try await hub.retirements()
        let retiredIds = Set(retirements.map(\.ledgerId))
        let ledgers = try await hub.ledgers().filter { !retiredIds.contains($0.id) }
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
            guard let id = UUID(uuidString: wanted), let found = ledgers.first(where: { $0.id == id }) else {
                throw ErrorBody.notFound("the hub has no ledger \(wanted); it has \(Self.list(ledgers))", field: "body.ledgerId")
            }
            (ledger, key) = try Self.open(found, passphrase: request.passphrase)
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
            (ledger, key) = try Self.open(ledgers[0], passphrase: request.passphrase)
            mode = request.merge == true ? .merge : .join
        } else {
            throw ErrorBody.validation("the hub holds \(ledgers.count) ledgers: name the one to join (\(Self.list(ledgers)))", field: "body.ledgerId")
        }
        let (deviceId, enableMode, named) = Self.enabling(ledger.id, previous: previous.map { ($0.ledgerId, $0.deviceId) },
                                                          successor: rejoining?.successorLedgerId, mode: mode)
        let status = try await store.call(SyncEnableRequest(
            ledgerId: ledger.id.uuidString.lowercased(), deviceId: deviceId.uuidString.lowercased(), hub: address.redacted, mode: enableMode))
        try SyncCredentials(hub: address, ledgerId: ledger.id, deviceId: deviceId, key: key).save(home: home.root)
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
