import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// A message re-sent for a gap carries a fresh `hlc` but its old fields and field clocks: applied,
/// it must be the merge it would have been (PROTOCOL.md §21, D446), never a newer version that
/// wins whole and turns the row's clocks back.
@Suite struct SyncResendMergeTests {
    @Test func aResentOldChangeDoesNotWinWholeOverANewerOne() async throws {
        let (a, ids) = try await SyncMergeTests.filledStore()
        let hub = SyncMergeTests.Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .create))
        try await hub.push(a)
        let b = try await hub.join()
        let lunch = ids["lunch"]!

        // A splits the lunch (12.50); that message is lost on the way to B.
        _ = try await a.call(TransactionUpdateRequest(id: lunch, splits: [SplitPart(amount: "10", categoryId: ids["food"]!), SplitPart(amount: "2.50", categoryId: ids["groceries"]!)]))
        try await hub.push(a)
        hub.messages.removeLast()
        _ = try await a.call(TransactionUpdateRequest(id: ids["pay"]!, notes: "after the lost one"))
        try await hub.push(a)
        // Later, B changes the lunch's amount: with A's split parts it no longer adds up.
        try await Task.sleep(for: .milliseconds(5))
        _ = try await b.call(TransactionUpdateRequest(id: lunch, amount: "14.00"))

        // B sees the gap and asks; A sends the lost message again (a new hlc, its old clocks).
        try await hub.meet([b, a])
        try await hub.meet([b, a])

        let onB = try await b.call(TransactionGetRequest(id: lunch))
        let onA = try await a.call(TransactionGetRequest(id: lunch))
        #expect(onB.amount == "14.00" && onB.splits.isEmpty, "\(onB)")
        #expect(onA.amount == onB.amount && onA.splits == onB.splits, "\(onA)\n\(onB)")
        #expect(try await b.call(SyncStatusRequest()).gaps?.isEmpty ?? true)
    }
}
