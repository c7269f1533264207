import LedgerlyProtocol
import Synchronization

/// Hands out the synthetic history's batches, numbered, to concurrent senders, and counts what
/// the store reports imported.
public final class BatchSource: Sendable {
    private struct State {
        var history: SyntheticHistory
        var number = 0
        var loaded = 0
    }

    private let state: Mutex<State>
    private let size: Int
    private let walletIds: [Int64], expenseIds: [Int64], incomeIds: [Int64]

    public init(history: SyntheticHistory, size: Int, walletIds: [Int64], expenseIds: [Int64], incomeIds: [Int64]) {
        self.state = Mutex(State(history: history))
        self.size = size
        self.walletIds = walletIds
        self.expenseIds = expenseIds
        self.incomeIds = incomeIds
    }

    /// The next batch and its number; nil when the history is used up.
    public func next() -> (Int, [TransactionImportItem])? {
        state.withLock { state in
            let items = state.history.nextBatch(size: size, walletIds: walletIds, expenseIds: expenseIds, incomeIds: incomeIds)
            guard !items.isEmpty else { return nil }
            state.number += 1
            return (state.number, items)
        }
    }

    public func loaded(_ count: Int) { state.withLock { $0.loaded += count } }

    public var loadedCount: Int { state.withLock { $0.loaded } }
}
