import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// `sync.rekey`: a new passphrase, so a new ledger key; the old hub ledger is retired (D480–D482).
///
/// The order, and what a `kill -9` at each step leaves (D482):
/// 1. a round with the old ledger, so what this device holds is everything it could get;
/// 2. one hub transaction makes the new ledger and the retirement record (sealed with the old
///    key). Cut short before it commits: the old ledger is untouched and fully working, run the
///    rekey again. After it commits the new ledger is in force, whatever follows;
/// 3. the store re-stamps the whole ledger for the new one (`sync.enable` with `rekey`);
/// 4. the new credentials are written (key first, then `hub.json`).
/// The new key and the record are written to `sync/rekey.json` before 2 (`RekeyInProgress`,
/// D534), so a rekey cut short after 2 and before 4 is finished by the next round, before it
/// does anything else (`SyncRekeyResumption`): the store moved to the new ledger, the new
/// credentials written. Nothing is pushed into the retired ledger in between.
struct SyncRekeyer: Sendable {
    let home: LedgerlyHome
    let store: AsyncRequestClient
    let round: SyncRound
    let cost: KDFParameters.Cost
    let logger: Logger

    func rekey(_ request: SyncRekeyRequest) async throws -> SyncRekeyReply {
        // No round runs between the steps below: one that read the old credentials before step 2
        // would find the new retirement and mark this device as needing to re-join (D482).
        await round.takeTurn()
        let outcome: Result<SyncRekeyReply, any Error>
        do { outcome = .success(try await rekeyingWithErrors(request)) } catch { outcome = .failure(error) }
        await round.giveTurn()
        return try outcome.get()
    }

    private func rekeyingWithErrors(_ request: SyncRekeyRequest) async throws -> SyncRekeyReply {
        do {
            return try await steps(request)
        } catch let error as HubError {
            if case .alreadyRetired = error {
                throw ErrorBody(code: .conflict, message: "\(error): re-join the new ledger with `ledgerly sync enable` and its passphrase")
            }
            throw ErrorBody(code: .unavailable, message: "the hub did not answer as it should: \(error)")
        } catch let error as SyncCryptoError {
            throw ErrorBody.validation("\(error)", field: "body.passphrase")
        } catch let error as CredentialsError {
            throw ErrorBody(code: .internal, message: "the sync credentials could not be read or written: \(error)")
        }
    }

    private func steps(_ request: SyncRekeyRequest) async throws -> SyncRekeyReply {
        guard let old = try SyncCredentials.load(home: home.root) else {
            throw ErrorBody(code: .conflict, message: "sync is not set up on this device (`ledgerly sync enable`)")
        }
        let status = try await store.call(SyncStatusRequest())
        guard status.state != "off" else { throw ErrorBody(code: .conflict, message: "sync is off on this device (`ledgerly sync enable`)") }
        if let successor = status.rejoinLedgerId {
            throw ErrorBody(code: .conflict, message: "this device's ledger was replaced by \(successor) (a rekey elsewhere): re-join it with `ledgerly sync enable` and its passphrase first")
        }
        var retired: [UUID] = []
        for (index, text) in (request.retireDevices ?? []).enumerated() {
            guard let id = UUID(uuidString: text), id.uuidString.lowercased() == text else {
                throw ErrorBody.validation("body.retireDevices[\(index)] must be a lower-case device id (a UUID, as `ledgerly sync devices` shows), got \(text)", field: "body.retireDevices")
            }
            guard id != old.deviceId else { throw ErrorBody.validation("body.retireDevices[\(index)] is this device, which the rekey keeps", field: "body.retireDevices") }
            retired.append(id)
        }
        // The same bar as a new ledger's (D434): the key check goes to the hub.
        try PassphraseStrength.check(request.passphrase)

        // 1. Everything this device can get from the old ledger first.
        if let outcome = await round.run(force: true, holdingTurn: true), let error = outcome.error {
            throw ErrorBody(code: outcome.hubUnreachable == true ? .unavailable : .conflict,
                            message: "the last round with the old ledger failed, so nothing was changed: \(error)")
        }
        // 2. The new ledger and the retirement, in one hub transaction.
        let parameters = try KDFParameters.newLedger(cost: cost)
        let newId = UUID()
        let key = try LedgerKey.derive(passphrase: request.passphrase, parameters: parameters)
        let ledger = HubLedger(id: newId, kdf: parameters, keyCheck: key.makeKeyCheck(ledgerId: newId))
        let record = LedgerRetirement(retiredLedgerId: old.ledgerId, successorLedgerId: newId, byDevice: old.deviceId, retiredDevices: retired)
        let hub = HubClient(address: old.hub, logger: logger)
        defer { Task { await hub.close() } }
        try await hub.ensureSchema()
        // The new key on disk before the hub transaction: once it commits, a rekey cut short is
        // finished by the next round rather than left for a re-join by hand (D534).
        try RekeyInProgress(record: record, key: key).save(home: home.root)
        do {
            try await hub.createSuccessor(ledger, retiring: old.ledgerId, retiredDevices: retired, sealed: try record.seal(with: old.key))
        } catch {
            // Nothing committed for certain unless the connection was lost: then it may have
            // committed, which the next round finds out (D534).
            if (error as? HubError)?.isTransient != true { try? RekeyInProgress.remove(home: home.root) }
            throw error
        }
        logger.notice("sync ledger retired by a rekey", metadata: ["retired": "\(old.ledgerId)", "ledger": "\(newId)"])
        // 3. The whole ledger into the outbox for the new one; 4. the new credentials.
        try await SyncRekeyResumption.finish(record, key: key, old: old, home: home, store: store)
        // A first round sends it; a failure here is for the schedule to retry, not the rekey's.
        let after = await round.run(force: true, holdingTurn: true)
        let now: SyncStatusReply
        if let after { now = after.status } else { now = try await store.call(SyncStatusRequest()) }
        return SyncRekeyReply(retiredLedgerId: old.ledgerId.uuidString.lowercased(), ledgerId: newId.uuidString.lowercased(),
                              retiredDevices: retired.map { $0.uuidString.lowercased() }, status: now)
    }
}
