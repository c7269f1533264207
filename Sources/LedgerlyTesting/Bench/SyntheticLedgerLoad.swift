import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Synchronization
import ZeroMQ

/// Loads `SyntheticHistory` into a store that has just started on an empty home, through the
/// real protocol: setup (EUR), the wallets, the categories, five years of daily rates, then the
/// transactions in `tx.import` batches from concurrent senders (one encodes its next batch while
/// the store applies another's). Shared by `ledgerly-bench ledger` and `ledgerly-bench networth`,
/// so both measure the same ledger.
public struct SyntheticLedgerLoad {
    public struct Result: Sendable {
        /// The store's ids of `SyntheticHistory.wallets`, in that order.
        public let walletIds: [Int64]
        public let loaded: Int
        public let loadTime: Duration
        public let failedBatches: Int
    }

    public let home: LedgerlyHome
    public let context: ZMQContext
    public let transactions: Int
    public let batch: Int
    public let senders: Int

    public init(home: LedgerlyHome, context: ZMQContext, transactions: Int, batch: Int = 5_000, senders: Int = 2) {
        self.home = home
        self.context = context
        self.transactions = transactions
        self.batch = batch
        self.senders = senders
    }

    /// `client` sends the setup; each sender has a client of its own. A failed batch is printed
    /// through `log` and stops its sender (the result counts it).
    public func run(client: RequestClient, log: @escaping @Sendable (String) -> Void = { _ in }) throws -> Result {
        _ = try client.call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false))
        var walletIds: [Int64] = []
        for wallet in SyntheticHistory.wallets {
            walletIds.append(try client.call(WalletCreateRequest(name: wallet.name, currency: wallet.currency, startingBalance: wallet.startingBalance)).id)
        }
        var expenseIds: [Int64] = [], incomeIds: [Int64] = []
        for (kind, tree) in [(CategoryKind.expense, SyntheticHistory.expenseCategories), (.income, SyntheticHistory.incomeCategories)] {
            for (parent, children) in tree {
                let parentId = try client.call(CategoryCreateRequest(name: parent, kind: kind)).id
                for child in children {
                    let id = try client.call(CategoryCreateRequest(name: child, kind: kind, parentId: parentId)).id
                    if kind == .expense { expenseIds.append(id) } else { incomeIds.append(id) }
                }
            }
        }
        let rates = SyntheticHistory.rates()
        for start in stride(from: 0, to: rates.count, by: 2_000) {
            _ = try client.call(RateBatchRequest(profileId: 1, source: "ecb", rates: Array(rates[start..<min(start + 2_000, rates.count)])))
        }

        let source = BatchSource(history: SyntheticHistory(count: transactions), size: batch, walletIds: walletIds, expenseIds: expenseIds, incomeIds: incomeIds)
        let started = ContinuousClock.now
        let group = DispatchGroup()
        let failures = FailedBatches()
        let (home, context) = (home, context)
        for _ in 0..<senders {
            group.enter()
            Thread {
                defer { group.leave() }
                let sender = RequestClient(.store, home: home, context: context, timing: ClientTiming(timeoutMilliseconds: 120_000, attempts: 1))
                defer { sender.close() }
                while let (number, items) = source.next() {
                    do {
                        source.loaded(try sender.call(TransactionImportRequest(importId: "bench", items: items), key: "bench-\(number)").imported)
                    } catch {
                        log("batch \(number) failed: \(error)")
                        failures.add()
                        return
                    }
                }
            }.start()
        }
        group.wait()
        return Result(walletIds: walletIds, loaded: source.loadedCount, loadTime: ContinuousClock.now - started, failedBatches: failures.value)
    }
}

/// Batches that failed, counted from the sender threads.
private final class FailedBatches: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
