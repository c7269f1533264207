import Foundation

/// One ledger as the hub knows it: its id, how its key is derived, and the key check. No name,
/// no owner, nothing of its contents: the hub holds only what a device needs to open it.
public struct HubLedger: Sendable, Hashable {
    public let id: UUID
    public let kdf: KDFParameters
    /// `LedgerKey.makeKeyCheck(ledgerId:)` of the ledger's key.
    public let keyCheck: Data
    /// Set by the hub; `nil` on a ledger not yet created.
    public let createdAt: Date?

    public init(id: UUID, kdf: KDFParameters, keyCheck: Data, createdAt: Date? = nil) {
        self.id = id
        self.kdf = kdf
        self.keyCheck = keyCheck
        self.createdAt = createdAt
    }
}
