import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// One round with the hub: push what the store's outbox holds, then pull and apply what other
/// devices pushed, then tell the store how it went.
///
/// Why push first: the store stamps local changes before it merges (`sync.apply`), so either
/// order converges; pushing first gets this device's work to the others a round sooner.
/// Every step can be cut short (a `kill -9`, the hub restarting) without loss or duplication:
/// the outbox is emptied only after the hub holds the messages (`sync.pushed`), the hub keeps
/// one row per (device, clock), and the store applies a hub position once.
actor SyncRound {
    /// Messages per outbox page and per pull.
    static let batch = 500

    private let home: LedgerlyHome
    private let store: AsyncRequestClient
    private let logger: Logger
    private var hub: (address: HubAddress, client: HubClient)?
    /// Whether `HubClient.ensureSchema` ran for the current client.
    private var schemaEnsured = false

    init(home: LedgerlyHome, store: AsyncRequestClient, logger: Logger) {
        self.home = home
        self.store = store
        self.logger = logger
    }

    /// Whether a round or a rekey holds the turn. An actor method lets another call in at each
    /// `await`, so without a turn a scheduled round that read the old credentials could finish
    /// after a rekey's hub transaction, find the retirement the rekey just wrote and report this
    /// very device as needing to re-join (D482).
    private var turnTaken = false
    private var waitingForTurn: [CheckedContinuation<Void, Never>] = []

    /// Waits until no round or rekey runs, then holds the turn until `giveTurn()`.
    func takeTurn() async {
        while turnTaken { await withCheckedContinuation { waitingForTurn.append($0) } }
        turnTaken = true
    }

    func giveTurn() {
        turnTaken = false
        if !waitingForTurn.isEmpty { waitingForTurn.removeFirst().resume() }
    }

    /// Runs a round when sync is on; nil when it is off (no credentials, or the store says off).
    /// `force`: report to the store even when nothing changed (`ledgerly sync now`).
    /// `holdingTurn`: the caller (a rekey) already holds the turn.
    func run(force: Bool = false, holdingTurn: Bool = false) async -> SyncRoundReply? {
        if !holdingTurn { await takeTurn() }
        defer { if !holdingTurn { giveTurn() } }
        return await runHoldingTurn(force: force)
    }

    private func runHoldingTurn(force: Bool) async -> SyncRoundReply? {
        // A rekey cut short after its hub transaction is finished first (D534).
        await SyncRekeyResumption.resumeIfCutShort(home: home, store: store, logger: logger)
        let credentials: SyncCredentials
        let status: SyncStatusReply
        do {
            guard let loaded = try SyncCredentials.load(home: home.root) else { return nil }
            credentials = loaded
            status = try await store.call(SyncStatusRequest())
            guard status.state != "off" else { return nil }
        } catch {
            logger.warning("sync round not started", metadata: ["error": "\(error)"])
            return nil
        }
        var pushed = 0
        var pulled = 0
        do {
            let client = self.client(for: credentials.hub)
            if !schemaEnsured {
                // An older hub gains the tables a rekey and `sync devices` use (D480, D483).
                try await client.ensureSchema()
                schemaEnsured = true
            }
            let seal = MessageSeal(key: credentials.key, ledgerId: credentials.ledgerId)
            // A retired ledger (a rekey elsewhere, D482): nothing more is pushed into it; this
            // device's changes wait for the re-join, which sends them into the new one.
            let retirement = status.rejoinLedgerId == nil ? try await retirement(client, credentials: credentials) : nil
            let retired = status.rejoinLedgerId != nil || retirement?.successor != nil
            if !retired { pushed = try await push(client, seal: seal, credentials: credentials, waiting: status.waitingOut) }
            let through: Int64
            (pulled, through) = try await pull(client, seal: seal, credentials: credentials, after: status.pulledSeq)
            if through == status.pulledSeq { try await releaseHeld(status, credentials: credentials) }
            // The status read before the round is still true when nothing went out or came in.
            let now = status.waitingOut > 0 || through != status.pulledSeq ? try await store.call(SyncStatusRequest()) : status
            let waiting = try await client.count(ledgerId: credentials.ledgerId, after: now.pulledSeq, excludingDevice: credentials.deviceId)
            try await client.recordContact(ledgerId: credentials.ledgerId, deviceId: credentials.deviceId, pulledSeq: now.pulledSeq)
            if pushed + pulled > 0 { logger.info("synced", metadata: ["pushed": "\(pushed)", "pulled": "\(pulled)"]) }
            // A retirement record that does not open with this ledger's key is not believed (a
            // hub cannot forge one) but is not passed over in silence either: the round fails
            // with it, after pushing and pulling as usual (D480).
            if let fault = retirement?.fault { throw SyncServiceError.unverifiedRetirement(fault) }
            let successor = retirement?.successor?.uuidString.lowercased()
            if let successor { logger.warning("sync ledger retired by a rekey: re-join with the new passphrase", metadata: ["ledger": "\(successor)"]) }
            // How the hub knew this device, for `sync status` (D531).
            let authentication = await client.security().reportedAuthentication
            let reported = try await report(SyncReportRequest(error: nil, waitingIn: waiting, rejoinLedgerId: successor, hubAuthentication: authentication), moved: pushed + pulled > 0 || successor != nil,
                                            current: now, force: force)
            return SyncRoundReply(pushed: pushed, pulled: pulled, error: nil, status: reported)
        } catch {
            let reason = Self.words(error)
            logger.warning("sync round failed", metadata: ["error": "\(reason)", "pushed": "\(pushed)", "pulled": "\(pulled)"])
            // A request the guard refused is what this connection's authentication was (D531).
            let authentication = await hub?.client.security().reportedAuthentication
            await dropClient()
            let reported = (try? await report(SyncReportRequest(error: reason, waitingIn: nil, hubAuthentication: authentication), moved: pushed + pulled > 0, current: status, force: force)) ?? status
            return SyncRoundReply(pushed: pushed, pulled: pulled, error: reason, hubUnreachable: (error as? HubError)?.isTransient == true, status: reported)
        }
    }

    /// The outbox, page by page: stamped, read, sealed, pushed in one hub transaction, then
    /// removed. Nothing at all when the store has nothing waiting to go out.
    private func push(_ client: HubClient, seal: MessageSeal, credentials: SyncCredentials, waiting: Int) async throws -> Int {
        guard waiting > 0 else { return 0 }
        var pushed = 0
        while true {
            // With the heartbeat once nothing else waits (D520).
            let stamp = try await store.call(SyncStampRequest(heartbeat: true))
            let page = try await store.call(SyncOutboxRequest(limit: Self.batch))
            if let last = page.entries.last {
                let sealed = try page.entries.map { entry in
                    HubOutgoing(deviceId: credentials.deviceId, hlc: entry.message.hlc,
                                sealed: try seal.seal(try MessageCoding.encode(entry.message), deviceId: credentials.deviceId, hlc: entry.message.hlc))
                }
                _ = try await client.push(ledgerId: credentials.ledgerId, sealed)
                _ = try await store.call(SyncPushedRequest(throughId: last.id))
                pushed += page.entries.count
            } else if stamp.stampingDone {
                return pushed
            }
        }
    }

    /// The hub's messages after `after`, opened and applied in the hub's order: how many were
    /// applied, and the hub position read through.
    private func pull(_ client: HubClient, seal: MessageSeal, credentials: SyncCredentials, after: Int64) async throws -> (applied: Int, through: Int64) {
        var cursor = after
        var applied = 0
        while true {
            let rows = try await client.pull(ledgerId: credentials.ledgerId, after: cursor, limit: Self.batch)
            guard let last = rows.last else { return (applied, cursor) }
            // The hub must move forward: rows at or below the cursor would be pulled again
            // forever (D466). A hub fault, reported as the round's error.
            try Self.checkForward(last: last.seq, cursor: cursor)
            // A row that does not open or decode is quarantined, not fatal: one bad row (random
            // bytes put in the hub's table, a message moved) must not stop every device (D444).
            var messages: [SyncIncoming] = []
            var quarantined: [SyncSetAside] = []
            for row in rows {
                let device = row.unreadable.contains("device_id") ? "unreadable" : row.deviceId.uuidString.lowercased()
                guard row.unreadable.isEmpty else {
                    // NULL or wrongly typed columns: the row does not read, quarantined (D465).
                    logger.warning("hub row quarantined", metadata: ["seq": "\(row.seq)", "unreadable": "\(row.unreadable)"])
                    quarantined.append(SyncSetAside(hubSeq: row.seq, device: device, hlc: row.hlc,
                                                    reason: "the hub's row does not read (\(row.unreadable.joined(separator: ", ")) NULL or not of its type)"))
                    continue
                }
                do {
                    let plain = try seal.open(row.sealed, deviceId: row.deviceId, hlc: row.hlc)
                    let message = try MessageCoding.decoder().decode(SyncMessage.self, from: plain)
                    // The sealed text must say what the row says: the hub cannot move a message.
                    guard message.hlc == row.hlc, message.device == device else { throw SyncServiceError.mismatchedMessage(seq: row.seq) }
                    messages.append(SyncIncoming(hubSeq: row.seq, message: message))
                } catch {
                    logger.warning("hub row quarantined", metadata: ["seq": "\(row.seq)", "error": "\(Self.words(error))"])
                    quarantined.append(SyncSetAside(hubSeq: row.seq, device: device, hlc: row.hlc, reason: Self.quarantineReason(error)))
                }
            }
            let key = "sync.apply:\(credentials.ledgerId.uuidString.lowercased()):\(rows[0].seq)-\(last.seq)"
            let reply = try await store.call(SyncApplyRequest(messages: messages, quarantined: quarantined.isEmpty ? nil : quarantined), key: key)
            applied += reply.applied
            for notice in reply.notices { logger.notice("sync conflict", metadata: ["notice": "\(notice)"]) }
            cursor = last.seq
        }
    }

    /// The hub's retirement of this device's ledger: the ledger that replaces it when the record
    /// opens with this ledger's key, a fault when it does not, nil when there is none.
    private func retirement(_ client: HubClient, credentials: SyncCredentials) async throws -> (successor: UUID?, fault: String?)? {
        guard let row = try await client.retirement(of: credentials.ledgerId) else { return nil }
        do {
            let record = try LedgerRetirement.open(row.sealed, key: credentials.key, retired: credentials.ledgerId, successor: row.successorId)
            return (record.successorLedgerId, nil)
        } catch {
            logger.warning("hub retirement record not believed", metadata: ["error": "\(error)"])
            return (nil, "\(error)")
        }
    }

    /// Throws when a pulled batch ends at or below the cursor it was asked after: an honest hub
    /// only returns rows after it, and going on would pull the same rows forever (D466).
    static func checkForward(last: Int64, cursor: Int64) throws(SyncServiceError) {
        guard last > cursor else { throw .hubWentBack(returned: last, cursor: cursor) }
    }

    /// Why a hub row was quarantined, in words for `sync status` (never the row's bytes).
    static func quarantineReason(_ error: any Error) -> String {
        switch error {
        case let error as SyncCryptoError: "it does not open with this ledger's key (\(error))"
        case let error as SyncServiceError: "\(error)"
        case is DecodingError: "it opens but is not a sync message this version reads"
        default: "it does not open or decode (\(words(error)))"
        }
    }

    /// Held messages (clocks too far ahead) that have come within the tolerance are applied
    /// with the next batch; with no batch coming, an empty one is sent, at most once a minute,
    /// once the first is due (`heldDueAt`, D445).
    private func releaseHeld(_ status: SyncStatusReply, credentials: SyncCredentials) async throws {
        guard let due = status.heldDueAt, let dueAt = Timestamp.parseTimestamp(due), dueAt <= Date() else { return }
        let minute = Int64(Date().timeIntervalSince1970 / 60)
        let key = "sync.apply:\(credentials.ledgerId.uuidString.lowercased()):held:\(status.pulledSeq):\(minute)"
        _ = try await store.call(SyncApplyRequest(messages: []), key: key)
    }

    /// What was last reported, and when: an idle round reports nothing, so a device that is in
    /// sync writes nothing to its store between reports (each write's reply is kept by key).
    private var lastReport: (request: SyncReportRequest, at: ContinuousClock.Instant)?
    /// How long an idle device goes without reporting (its `lastSuccess` is at most this old).
    static let quietReportInterval: Duration = .seconds(600)

    private func report(_ request: SyncReportRequest, moved: Bool, current: SyncStatusReply, force: Bool) async throws -> SyncStatusReply {
        let stale = lastReport.map { ContinuousClock.now - $0.at >= Self.quietReportInterval } ?? true
        let storeAgrees = (request.error == nil) == (current.state != "error")
        if !force, !moved, !stale, storeAgrees, lastReport?.request == request { return current }
        let reported = try await store.call(request)
        lastReport = (request, .now)
        return reported
    }

    private func client(for address: HubAddress) -> HubClient {
        if let hub, hub.address == address { return hub.client }
        let client = HubClient(address: address, logger: logger)
        hub = (address, client)
        schemaEnsured = false
        return client
    }

    /// After a failure the next round connects afresh (the hub may have restarted).
    private func dropClient() async {
        if let hub { await hub.client.close() }
        hub = nil
        schemaEnsured = false
    }

    /// An error as the user reads it in `sync status` (never a password: `HubError` redacts).
    static func words(_ error: any Error) -> String {
        switch error {
        case let error as ClientError: "the store did not answer: \(error)"
        case let error as any CustomStringConvertible: error.description
        default: "\(error)"
        }
    }
}

/// What the sync service refuses on its own.
enum SyncServiceError: Error, CustomStringConvertible {
    case mismatchedMessage(seq: Int64)
    case hubWentBack(returned: Int64, cursor: Int64)
    case unverifiedRetirement(String)

    var description: String {
        switch self {
        case .mismatchedMessage(let seq):
            "hub message \(seq) says another device or clock inside its seal than outside: the hub's rows were changed; nothing from it was applied"
        case .hubWentBack(let returned, let cursor):
            "the hub returned messages up to position \(returned) when asked for those after \(cursor): the hub is faulty; nothing more was pulled this round"
        case .unverifiedRetirement(let reason):
            "\(reason): it was not made with this ledger's key, so it is not believed and sync goes on with this ledger (the hub's rows were changed)"
        }
    }
}
