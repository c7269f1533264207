import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// A `tx.import` batch's items checked and converted on the store's decoding thread, on a read
/// snapshot, while the applying thread is still writing the batches ahead of it (D370).
///
/// Why: the applying thread is the one a load or an `import json` waits for, and a fifth of it
/// was checks and conversions that read only wallets, categories, settings and rates, none of
/// which an import changes. The plan is used only when it is still what the write would work
/// out itself: no other write has committed since it was read (`WriteGeneration`) and it is
/// still the same day. Items whose conversion reads the clock (dated today or later, an override
/// rate) and items whose planning failed for a reason other than a refusal are left unplanned;
/// the write works those out as it always has.
struct ImportPlan: Sendable {
    enum Item: Sendable {
        case transaction(Result<PlannedTransaction, any Error>)
        case transfer(Result<PlannedTransfer, any Error>)

        /// The planned transaction, or the refusal it was planned to be (nil: not one).
        func transaction() throws -> PlannedTransaction? {
            guard case .transaction(let plan) = self else { return nil }
            return try plan.get()
        }

        /// The planned transfer, or its refusal (nil: not one).
        func transfer() throws -> PlannedTransfer? {
            guard case .transfer(let plan) = self else { return nil }
            return try plan.get()
        }
    }

    /// The count of writes when the plan was read, and the count itself.
    let generation: UInt64
    let writes: WriteGeneration
    let today: String
    /// One per request item; nil: work it out in the write.
    let items: [Item?]
    /// The report totals of the items marked in `totalled`, added up here so that the write
    /// only adds the sum (`TransactionWriter.addPlannedTotals`): an item is marked when its plan
    /// succeeded and it has no import key, so that the write records it for certain if the
    /// batch commits at all (a keyed item may turn out to be a duplicate and be skipped).
    let totals: LedgerTotals
    let totalled: [Bool]

    /// Plans what it can of `request`; nil when the snapshot cannot be read (the write then
    /// works out every item itself).
    static func make(_ request: TransactionImportRequest, _ environment: StoreRouteEnvironment) -> ImportPlan? {
        guard (1...TransactionImportRequest.maximumItems).contains(request.items.count) else { return nil }
        // Read before the snapshot is taken: a write committed after this moves it.
        let generation = environment.database.writeGeneration.current
        let now = environment.clock.now()
        return try? environment.database.pool.read { db in
            let planner = TransactionPlanner(db: db)
            let items = request.items.map { item -> Item? in
                switch (item.transaction, item.transfer) {
                case (let transaction?, nil):
                    let plan = Result { try planner.plan(transaction, kept: item.kept, now: now) }
                    guard isRefusalOrSuccess(plan.flatMap { $0.conversion }), (try? plan.get().readsClock) != true else { return nil }
                    return .transaction(plan)
                case (nil, let transfer?):
                    let plan = Result { try planner.plan(transfer, kept: item.kept, now: now) }
                    guard isRefusalOrSuccess(plan.flatMap { $0.conversions }), (try? plan.get().readsClock) != true else { return nil }
                    return .transfer(plan)
                default:
                    return nil
                }
            }
            let (totals, totalled) = addedUp(request, items)
            return ImportPlan(generation: generation, writes: environment.database.writeGeneration, today: Timestamp.today(at: now), items: items,
                              totals: totals, totalled: totalled)
        }
    }

    /// The totals of the items the write records for certain, with the entries the write would
    /// add itself (`TransactionWriter.totalsEntry`). A sum that would overflow leaves every item
    /// to the write, which then refuses the one that overflows, naming it.
    private static func addedUp(_ request: TransactionImportRequest, _ items: [Item?]) -> (LedgerTotals, [Bool]) {
        var totals = LedgerTotals()
        var totalled = [Bool](repeating: false, count: items.count)
        do {
            for (index, item) in items.enumerated() where request.items[index].importKey == nil {
                switch item {
                case .transaction(.success(let plan))?:
                    guard let transaction = request.items[index].transaction, case .success(let converted) = plan.conversion else { continue }
                    try totals.add(TransactionWriter.totalsEntry(transaction, plan, converted.converted, transfer: false))
                case .transfer(.success(let plan))?:
                    guard case .success(let conversions) = plan.conversions else { continue }
                    for entry in TransactionWriter.totalsEntries(plan, conversions) { try totals.add(entry) }
                default:
                    continue
                }
                totalled[index] = true
            }
        } catch {
            return (LedgerTotals(), [Bool](repeating: false, count: items.count))
        }
        return (totals, totalled)
    }

    /// Whether the write may use this plan: nothing it read can have changed since.
    func isCurrent(at date: Date) -> Bool {
        generation == writes.current && today == Timestamp.today(at: date)
    }

    /// A refusal is the item's answer whenever it is planned; any other failure (a read that
    /// failed) says nothing about the item.
    private static func isRefusalOrSuccess<T>(_ result: Result<T, any Error>) -> Bool {
        switch result {
        case .success: true
        case .failure(let error): error is LedgerError
        }
    }
}
