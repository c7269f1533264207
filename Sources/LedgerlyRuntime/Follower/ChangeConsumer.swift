import LedgerlyProtocol

/// What a subscriber service does with each change, in order, exactly once per cursor position.
///
/// Delivery is at-least-once around a crash (an event handled just before `kill -9` and not yet
/// in the cursor file is handled again after restart), so effects must be idempotent by `seq`;
/// with that, every change takes effect exactly once.
public protocol ChangeConsumer: Sendable {
    func handle(_ event: ChangeEvent) async throws
    /// Called when the database was replaced (another epoch, or the same epoch with a change
    /// log that ends before the cursor): the follower then replays from seq 1. `lastSeq` is the
    /// replaced database's last seq when it was noticed: events up to it are its history.
    func storeReplaced(oldEpoch: String?, newEpoch: String, lastSeq: Int64) async
}

extension ChangeConsumer {
    public func storeReplaced(oldEpoch: String?, newEpoch: String, lastSeq: Int64) async {}
}
