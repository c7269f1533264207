import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Synchronization
import ZeroMQ

/// Loads `SyntheticHistory` into a store that has just started on an empty home, through the
/// real protocol: setup (EUR), the wallets, the categories, five years of daily rates, then the
/// transactions in `tx.import` batches from concurrent senders (one encodes its next batch while
/// the store applies another's), written as `ledgerly import` writes them. Shared by `ledgerly-bench ledger` and `ledgerly-bench networth`,
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
                        source.loaded(try Self.importBatch(TransactionImportRequest(importId: "bench", items: items), key: "bench-\(number)", on: sender).imported)
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

    /// One batch, its frame written by `TransactionImportCoding` as `ledgerly import` writes it
    /// (D359), not by `JSONEncoder`: the senders share the machine's two cores with the store,
    /// and `JSONEncoder` took more CPU for a million transactions than the store's load did.
    private static func importBatch(_ request: TransactionImportRequest, key: String, on client: RequestClient) throws -> TransactionImportReply {
        let envelope = Envelope(type: TransactionImportRequest.messageType.rawValue, body: request, key: key)
        let reply = try client.exchange(TransactionImportCoding.encode(envelope), id: envelope.id)
        return try RequestClient.decodeReply(reply, as: TransactionImportReply.self, expectedType: TransactionImportRequest.messageType.replyType)
    }
}

/// Batches that failed, counted from the sender threads.
private final class FailedBatches: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
