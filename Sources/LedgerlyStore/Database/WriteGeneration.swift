import Synchronization

/// Counts the committed writes that can change what an import plan reads (wallets, categories,
/// rates, settings): every write but `tx.import` itself.
///
/// Why: a `tx.import` batch is planned on a read snapshot while earlier requests are still being
/// applied (`ImportPlan`, D370). The plan notes the count before it reads; the batch uses it only
/// if the count is unchanged when it is applied, so no write the plan could have missed came
/// between. The count moves as each write commits, on the writer (`StoreRouter.applyOnce`): a
/// plan whose snapshot could hold a change, or miss it, read the count before it moved, and finds
/// it moved when its batch is applied (after that commit, on the same writer). A write that
/// fails changes nothing and leaves the count.
final class WriteGeneration: Sendable {
    private let count = Atomic<UInt64>(0)

    var current: UInt64 { count.load(ordering: .acquiring) }

    func advance() { count.add(1, ordering: .releasing) }
}
