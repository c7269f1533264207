import Foundation

/// A row of `ledgerly_retirements` as the hub returns it: not to be believed before
/// `LedgerRetirement.open` has opened `sealed` with the retired ledger's key (D480).
public struct HubRetirement: Sendable, Hashable {
    public let ledgerId: UUID
    public let successorId: UUID
    public let retiredDevices: [UUID]
    public let sealed: Data
    public let retiredAt: Date

    public init(ledgerId: UUID, successorId: UUID, retiredDevices: [UUID], sealed: Data, retiredAt: Date) {
        self.ledgerId = ledgerId
        self.successorId = successorId
        self.retiredDevices = retiredDevices
        self.sealed = sealed
        self.retiredAt = retiredAt
    }
}

/// A device as the hub has seen it in one ledger (`ledgerly_devices`, and the devices that sent
/// messages there): the hub's say, for `sync devices` (D483).
public struct HubDevice: Sendable, Hashable {
    public let ledgerId: UUID
    public let deviceId: UUID
    /// nil for a device that sent messages before the hub kept contacts (an older hub).
    public let firstContact: Date?
    public let lastContact: Date?
    /// The last hub position the device said it had read through; nil when unknown.
    public let pulledSeq: Int64?
    /// The highest hub position of a message the device sent; nil when it sent none.
    public let lastSentSeq: Int64?

    public init(ledgerId: UUID, deviceId: UUID, firstContact: Date?, lastContact: Date?, pulledSeq: Int64?, lastSentSeq: Int64?) {
        self.ledgerId = ledgerId
        self.deviceId = deviceId
        self.firstContact = firstContact
        self.lastContact = lastContact
        self.pulledSeq = pulledSeq
        self.lastSentSeq = lastSentSeq
    }
}
