/// `sync.rekey`, answered by `ledgerly-sync`: a new passphrase for the ledger (D480–D482). A new
/// hub ledger is made with a key derived from `passphrase`, the old one is retired in favour of
/// it (a record sealed with the old key, which the other devices verify), and this device's
/// whole ledger is sent into the new one. The other devices are told to re-join with the new
/// passphrase; a device that never gets it reads nothing written after the rekey.
public struct SyncRekeyRequest: WriteRequest, Hashable {
    public typealias Reply = SyncRekeyReply
    public static let messageType: MessageType = "sync.rekey"
    public static let allowedBeforeSetup = true
    /// The new passphrase: held to the same strength as a new ledger's.
    public var passphrase: String
    /// Devices (their ids, lower-case UUIDs) that will not be given the new passphrase: named as
    /// retired in `sync.devices`.
    public var retireDevices: [String]?
    public init(passphrase: String, retireDevices: [String]? = nil) {
        self.passphrase = passphrase
        self.retireDevices = retireDevices
    }
}

public struct SyncRekeyReply: Codable, Hashable, Sendable {
    /// The ledger retired, and the one that replaces it.
    public var retiredLedgerId: String
    public var ledgerId: String
    public var retiredDevices: [String]
    /// What went into the outbox for the new ledger, and the status after the first round.
    public var status: SyncStatusReply
    public init(retiredLedgerId: String, ledgerId: String, retiredDevices: [String], status: SyncStatusReply) {
        self.retiredLedgerId = retiredLedgerId
        self.ledgerId = ledgerId
        self.retiredDevices = retiredDevices
        self.status = status
    }
}

/// `sync.devices`, answered by `ledgerly-sync`: the devices the hub has seen in this device's
/// ledger and the ledgers it replaced (D483). What the hub says: it is not sealed, and a hostile
/// hub can leave a device out or invent one.
public struct SyncDevicesRequest: ReadRequest, Hashable {
    public typealias Reply = SyncDevicesReply
    public static let messageType: MessageType = "sync.devices"
    public static let allowedBeforeSetup = true
    public init() {}
}

public struct SyncDevicesReply: Codable, Hashable, Sendable {
    /// This device's ledger on the hub.
    public var ledgerId: String
    public var devices: [SyncDevice]
    public init(ledgerId: String, devices: [SyncDevice]) {
        self.ledgerId = ledgerId
        self.devices = devices
    }
}

/// One device in one ledger, as the hub saw it.
public struct SyncDevice: Codable, Hashable, Sendable {
    public var deviceId: String
    public var ledgerId: String
    /// `current`: the ledger this device syncs; `retired`: a ledger a rekey replaced (a device
    /// seen only there has not re-joined).
    public var ledger: String
    /// The hub's clock at the device's first and last round (nil: the hub kept no contact, an
    /// older hub, or only messages are known).
    public var firstContact: String?
    public var lastContact: String?
    /// The last hub position the device read through, and the last one it sent.
    public var pulledSeq: Int64?
    public var lastSentSeq: Int64?
    /// Named with `sync rekey --retire` in a retirement record this device opened with the retired
    /// ledger's key (never from the hub's clear column alone, D533).
    public var retired: Bool
    /// This device.
    public var thisDevice: Bool
    /// For a device in a retired ledger: `verified` when this device opened that ledger's
    /// retirement record with its key (or verified it while it held the key), `unverified` when it
    /// cannot (the hub's say: a device that joined after the rekey holds only the new key) (D533).
    public var retirement: String?
    public init(deviceId: String, ledgerId: String, ledger: String, firstContact: String?, lastContact: String?, pulledSeq: Int64?, lastSentSeq: Int64?,
                retired: Bool, thisDevice: Bool, retirement: String? = nil) {
        self.retirement = retirement
        self.deviceId = deviceId
        self.ledgerId = ledgerId
        self.ledger = ledger
        self.firstContact = firstContact
        self.lastContact = lastContact
        self.pulledSeq = pulledSeq
        self.lastSentSeq = lastSentSeq
        self.retired = retired
        self.thisDevice = thisDevice
    }
}
