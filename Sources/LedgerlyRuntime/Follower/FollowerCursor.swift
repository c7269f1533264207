import FoundationEssentials

/// How far a subscriber has handled the store's change log: the last `seq` handled within `epoch`.
public struct FollowerCursor: Codable, Hashable, Sendable {
    public var epoch: String?
    public var seq: Int64

    public init(epoch: String?, seq: Int64) {
        self.epoch = epoch
        self.seq = seq
    }
}
