/// `sync.enable`: this device takes part in the hub ledger `ledgerId` as `deviceId`. The store
/// then turns every synced thing it holds into outbox messages (compared with what it last sent,
/// so enabling again sends only what changed meanwhile). Sent by `ledgerly-sync` once it has
/// reached the hub and checked the passphrase; allowed before setup (a joining device gets its
/// settings from the ledger).
public struct SyncEnableRequest: WriteRequest, Hashable {
    public typealias Reply = SyncStatusReply
    public static let messageType: MessageType = "sync.enable"
    public static let allowedBeforeSetup = true
    public var ledgerId: String
    public var deviceId: String
    /// The hub's address without its password, for `sync status`.
    public var hub: String
    public var mode: SyncEnableMode
    public init(ledgerId: String, deviceId: String, hub: String, mode: SyncEnableMode) {
        self.ledgerId = ledgerId
        self.deviceId = deviceId
        self.hub = hub
        self.mode = mode
    }
}

/// How a device starts syncing.
public enum SyncEnableMode: String, Codable, Hashable, Sendable, CaseIterable {
    /// The first device: it made the hub ledger, and sends everything it holds.
    case create
    /// A device with no ledger of its own (no wallets, categories or transactions): it sends
    /// nothing of its past and receives the hub's ledger. Refused when it holds one.
    case join
    /// A device that holds a ledger and joins anyway: everything it holds is sent as new things
    /// beside the hub's (same-named wallets and categories are renamed, docs/sync.md).
    case merge
    /// The same things in a new ledger that replaces the old one (`ledgerly sync rekey`, and a
    /// device re-joining after one): identities and field clocks are kept, and every thing is sent
    /// again as it stands, so the devices of the new ledger merge it as the same things (D481).
    case rekey
}

/// `sync.disable`: stops stamping and applying; every local record, identity and waiting message
/// is kept, so enabling the same ledger again resumes.
public struct SyncDisableRequest: WriteRequest, Hashable {
    public typealias Reply = SyncStatusReply
    public static let messageType: MessageType = "sync.disable"
    public static let allowedBeforeSetup = true
    public init() {}
}

/// `sync.stamp`: turns local changes not yet stamped into outbox messages (about 2,000 things
/// per call; an import's event counts whole). A write: stamping gives clocks and global ids,
/// which must be kept. The messages themselves are read with `sync.outbox`, a read, so that the
/// store does not keep every outbox page among the replies it remembers by key.
public struct SyncStampRequest: WriteRequest, Hashable {
    public typealias Reply = SyncStampReply
    public static let messageType: MessageType = "sync.stamp"
    public static let allowedBeforeSetup = true
    /// Also put this device's heartbeat in the outbox when one is owed and due (nothing else
    /// waits, messages were numbered since the last one, none in the last second): the highest
    /// number it sent, so a receiver sees a drop of its last messages (D520). `ledgerly-sync`
    /// asks for it; absent or false: never.
    public var heartbeat: Bool?
    public init(heartbeat: Bool? = nil) { self.heartbeat = heartbeat }
}

public struct SyncStampReply: Codable, Hashable, Sendable {
    /// Outbox entries waiting to be pushed, and whether local changes remain to be stamped.
    public var waiting: Int
    public var stampingDone: Bool
    public init(waiting: Int, stampingDone: Bool) {
        self.waiting = waiting
        self.stampingDone = stampingDone
    }
}

/// `sync.outbox`: the oldest outbox entries waiting to be pushed, in order. The same entries
/// come back until `sync.pushed` removes them.
public struct SyncOutboxRequest: ReadRequest, Hashable {
    public typealias Reply = SyncOutboxReply
    public static let messageType: MessageType = "sync.outbox"
    public static let allowedBeforeSetup = true
    /// Entries returned (1–5,000, default 500).
    public var limit: Int?
    public init(limit: Int? = nil) { self.limit = limit }
}

public struct SyncOutboxReply: Codable, Hashable, Sendable {
    public var entries: [SyncOutboxEntry]
    /// Entries still waiting after these.
    public var waiting: Int
    public init(entries: [SyncOutboxEntry], waiting: Int) {
        self.entries = entries
        self.waiting = waiting
    }
}

/// `sync.pushed`: the hub holds every outbox entry up to `throughId`; they are removed.
public struct SyncPushedRequest: WriteRequest, Hashable {
    public typealias Reply = SyncPushedReply
    public static let messageType: MessageType = "sync.pushed"
    public static let allowedBeforeSetup = true
    public var throughId: Int64
    public init(throughId: Int64) { self.throughId = throughId }
}

public struct SyncPushedReply: Codable, Hashable, Sendable {
    public var removed: Int
    public init(removed: Int) { self.removed = removed }
}

/// `sync.apply`: other devices' messages, in the hub's order, merged into the ledger through its
/// normal writes (balances, totals and the change log stay exact; subscribers see ordinary
/// events). The store remembers the last `hubSeq` applied in the same transaction; a message at or
/// below it is passed over, so a batch sent twice changes nothing.
public struct SyncApplyRequest: WriteRequest, Hashable {
    public typealias Reply = SyncApplyReply
    public static let messageType: MessageType = "sync.apply"
    public static let allowedBeforeSetup = true
    public var messages: [SyncIncoming]
    /// Hub rows of this batch that did not open or decode: recorded as quarantined (counted and
    /// named in `sync status`) and passed over, so one bad row never stops sync (issue 44,
    /// finding 4). Their positions count as applied.
    public var quarantined: [SyncSetAside]?
    public init(messages: [SyncIncoming], quarantined: [SyncSetAside]? = nil) {
        self.messages = messages
        self.quarantined = quarantined
    }
}

/// Messages of one other device this device knows it has not received: numbers missing from
/// that device's sequence (`SyncMessage.seq`).
public struct SyncGap: Codable, Hashable, Sendable {
    public var device: String
    /// The missing numbers as ranges, "5-7, 9".
    public var missing: String
    /// When this device last asked the other to send them again; nil until it has.
    public var requestedAt: String?
    /// In `lostGaps`: when the other device answered that it no longer holds them (D521).
    public var lostAt: String?
    public init(device: String, missing: String, requestedAt: String?, lostAt: String? = nil) {
        self.device = device
        self.missing = missing
        self.requestedAt = requestedAt
        self.lostAt = lostAt
    }
}

/// A hub row this device put aside rather than applying: one that did not open or decode
/// (quarantined, for good), or a message whose clock is too far ahead of this device's wall
/// clock (held until the clock is near enough; docs/sync.md, "Rows put aside").
public struct SyncSetAside: Codable, Hashable, Sendable {
    public var hubSeq: Int64
    /// The device and clock the hub's row names (for a quarantined row, not verified).
    public var device: String
    public var hlc: String
    /// Why, in words for the user.
    public var reason: String
    public init(hubSeq: Int64, device: String, hlc: String, reason: String) {
        self.hubSeq = hubSeq
        self.device = device
        self.hlc = hlc
        self.reason = reason
    }
}

public struct SyncApplyReply: Codable, Hashable, Sendable {
    /// Messages that changed something here, and those that changed nothing (already known,
    /// older than what is here, or already applied).
    public var applied: Int
    public var unchanged: Int
    /// The last hub position applied.
    public var pulledSeq: Int64
    /// What a conflict did, in words for the user (also kept for `sync status`).
    public var notices: [String]
    public init(applied: Int, unchanged: Int, pulledSeq: Int64, notices: [String]) {
        self.applied = applied
        self.unchanged = unchanged
        self.pulledSeq = pulledSeq
        self.notices = notices
    }
}

/// `sync.report`: `ledgerly-sync` says how its last round with the hub went.
public struct SyncReportRequest: WriteRequest, Hashable {
    public typealias Reply = SyncStatusReply
    public static let messageType: MessageType = "sync.report"
    public static let allowedBeforeSetup = true
    /// nil: the round succeeded.
    public var error: String?
    /// Other devices' messages on the hub not applied here yet, when the hub was reached.
    public var waitingIn: Int?
    /// The ledger that replaces this device's (a rekey on another device, its retirement record
    /// opened with this device's key): the device must re-join with the new passphrase (D482).
    public var rejoinLedgerId: String?
    /// How the hub knew this device on the round's connection ("SCRAM-SHA-256", or what the
    /// server asked for and was refused), in words for `sync status`; nil: no connection got
    /// that far, the last one stands (D531).
    public var hubAuthentication: String?
    public init(error: String?, waitingIn: Int?, rejoinLedgerId: String? = nil, hubAuthentication: String? = nil) {
        self.error = error
        self.waitingIn = waitingIn
        self.rejoinLedgerId = rejoinLedgerId
        self.hubAuthentication = hubAuthentication
    }
}

/// `sync.status`
public struct SyncStatusRequest: ReadRequest, Hashable {
    public typealias Reply = SyncStatusReply
    public static let messageType: MessageType = "sync.status"
    public static let allowedBeforeSetup = true
    public init() {}
}

/// Where sync stands on this device.
public struct SyncStatusReply: Codable, Hashable, Sendable {
    /// `off`, `syncing` (changes wait to go out or come in), `synced`, `error` (the last round
    /// failed: `lastError` says why), or `rejoin` (a rekey replaced the ledger: re-join with the
    /// new passphrase; `rejoinLedgerId` names the new ledger).
    /// `held`: otherwise `synced`, but changes with a clock too far ahead wait to be applied
    /// (`heldTotal`); `synced` means no known gap and nothing held (D492).
    /// `lost`: otherwise `synced` or `held`, but messages another device sent are gone for good
    /// (`lostGaps`, D521): this ledger may lack changes that device made.
    public var state: String
    public var ledgerId: String?
    public var deviceId: String?
    public var hub: String?
    public var lastSuccess: String?
    public var lastError: String?
    public var lastErrorAt: String?
    /// Messages waiting to be pushed (outbox entries, plus a local change not stamped yet counts
    /// as one), and other devices' messages the hub held at the last round.
    public var waitingOut: Int
    public var waitingIn: Int?
    public var pulledSeq: Int64
    /// The most recent conflict notices, newest last.
    public var notices: [String]
    /// Hub rows that did not open or decode, passed over (the most recent 20, newest last), and
    /// how many there are in all; absent when none.
    public var quarantined: [SyncSetAside]?
    public var quarantinedTotal: Int?
    /// Messages held because their clock is too far ahead (the oldest 20), how many in all, and
    /// when the first of them comes within the tolerance; absent when none.
    public var held: [SyncSetAside]?
    public var heldTotal: Int?
    public var heldDueAt: String?
    /// Other devices' messages known to be missing here (gaps in their numbers); while one is
    /// known, `state` is not `synced`. Absent when none.
    public var gaps: [SyncGap]?
    /// Other devices' messages lost for good: their sender answered that it no longer holds them
    /// (`lostAt`), so they are not asked for again (D521). Absent when none.
    public var lostGaps: [SyncGap]?
    /// The ledger that replaced this device's (state `rejoin`); absent otherwise.
    public var rejoinLedgerId: String?
    /// How the hub knew this device on the last connection a round reported (D531); absent
    /// until one did, and after `sync.enable` with another hub.
    public var hubAuthentication: String?
    public init(state: String, ledgerId: String?, deviceId: String?, hub: String?, lastSuccess: String?, lastError: String?, lastErrorAt: String?,
                waitingOut: Int, waitingIn: Int?, pulledSeq: Int64, notices: [String], quarantined: [SyncSetAside]? = nil, quarantinedTotal: Int? = nil,
                held: [SyncSetAside]? = nil, heldTotal: Int? = nil, heldDueAt: String? = nil, gaps: [SyncGap]? = nil) {
        self.gaps = gaps
        self.quarantined = quarantined
        self.quarantinedTotal = quarantinedTotal
        self.held = held
        self.heldTotal = heldTotal
        self.heldDueAt = heldDueAt
        self.state = state
        self.ledgerId = ledgerId
        self.deviceId = deviceId
        self.hub = hub
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.waitingOut = waitingOut
        self.waitingIn = waitingIn
        self.pulledSeq = pulledSeq
        self.notices = notices
    }
}

/// `sync.connect`, answered by `ledgerly-sync`: reach the hub at `url`, and make this device
/// part of its ledger. With no ledger on the hub, one is made (its key derived from
/// `passphrase`) and this device's whole ledger is sent; with one, the passphrase is checked
/// against it and this device joins (`merge`: also sends its own ledger). The credentials are kept
/// in files only the user can read; the passphrase itself is never stored nor logged.
public struct SyncConnectRequest: WriteRequest, Hashable {
    public typealias Reply = SyncStatusReply
    public static let messageType: MessageType = "sync.connect"
    public static let allowedBeforeSetup = true
    /// `postgres://user:password@host:port/database?sslmode=require` (docs/sync-hub.md).
    public var url: String
    public var passphrase: String
    /// Join although this device holds a ledger of its own, sending it beside the hub's.
    public var merge: Bool?
    /// The hub ledger to join when the hub holds several.
    public var ledgerId: String?
    public init(url: String, passphrase: String, merge: Bool? = nil, ledgerId: String? = nil) {
        self.url = url
        self.passphrase = passphrase
        self.merge = merge
        self.ledgerId = ledgerId
    }
}

/// `sync.now`, answered by `ledgerly-sync`: one round with the hub at once (push, then pull).
public struct SyncNowRequest: ReadRequest, Hashable {
    public typealias Reply = SyncRoundReply
    public static let messageType: MessageType = "sync.now"
    public static let allowedBeforeSetup = true
    public init() {}
}

/// What one round with the hub did.
public struct SyncRoundReply: Codable, Hashable, Sendable {
    /// Messages pushed to the hub, and other devices' messages applied here.
    public var pushed: Int
    public var pulled: Int
    /// Why the round failed; nil when it succeeded.
    public var error: String?
    /// True when the round failed because no connection to the hub could be made or one was
    /// lost (the hub down or restarting, the network gone): worth trying again later as it is.
    /// Nil or false for a round that succeeded or failed otherwise (a password, a URL, a
    /// certificate, the store): `ledgerly sync now` exits 5 for the first, 1 for the others (D423).
    public var hubUnreachable: Bool?
    public var status: SyncStatusReply
    public init(pushed: Int, pulled: Int, error: String?, hubUnreachable: Bool? = nil, status: SyncStatusReply) {
        self.pushed = pushed
        self.pulled = pulled
        self.error = error
        self.hubUnreachable = hubUnreachable
        self.status = status
    }
}
