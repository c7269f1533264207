import LedgerlyProtocol

/// What a subscriber service does with each change, in order, exactly once per cursor position.
///
/// Delivery is at-least-once around a crash (an event handled just before `kill -9` and not yet
/// in the cursor file is handled again after restart), so effects must be idempotent by `seq`;
/// with that, every change takes effect exactly once.
public protocol ChangeConsumer: Sendable {
    func handle(_ event: ChangeEvent) async throws
    /// Called when the store's epoch differs from the cursor's: the database was replaced.
    func storeReplaced(oldEpoch: String?, newEpoch: String) async
}

extension ChangeConsumer {
    public func storeReplaced(oldEpoch: String?, newEpoch: String) async {}
}
