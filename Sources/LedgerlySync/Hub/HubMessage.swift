import Foundation

/// A sealed message on its way to the hub. The hub sees the device, the clock and the ciphertext.
public struct HubOutgoing: Sendable, Hashable {
    public let deviceId: UUID
    /// The hybrid logical clock of the change, as text; with the device id it names the message,
    /// so pushing it twice stores it once.
    public let hlc: String
    /// `MessageSeal.seal` output.
    public let sealed: Data

    public init(deviceId: UUID, hlc: String, sealed: Data) {
        self.deviceId = deviceId
        self.hlc = hlc
        self.sealed = sealed
    }
}

/// A message as pulled from the hub: what was pushed plus its place in the ledger's order.
public struct HubMessage: Sendable, Hashable {
    /// Increasing in commit order within a ledger, with possible gaps; a puller keeps the last one
    /// it applied as its cursor.
    public let seq: Int64
    public let deviceId: UUID
    public let hlc: String
    public let sealed: Data
    /// The columns of the hub's row that were NULL or not of their type (a changed or hostile
    /// hub), by name; empty for a row that reads. Such a row is quarantined like one that does
    /// not open (D465), its unreadable columns standing in as the nil device id, "" and no bytes.
    public let unreadable: [String]

    public init(seq: Int64, deviceId: UUID, hlc: String, sealed: Data, unreadable: [String] = []) {
        self.seq = seq
        self.deviceId = deviceId
        self.hlc = hlc
        self.sealed = sealed
        self.unreadable = unreadable
    }
}
