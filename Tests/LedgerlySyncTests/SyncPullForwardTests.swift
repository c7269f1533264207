@testable import LedgerlySync
import Testing

/// D466: a hub that returns rows at or below the cursor it was asked after would keep the pull
/// loop going forever; the round stops with the hub's fault named instead.
@Suite struct SyncPullForwardTests {
    @Test func aBatchEndingAtOrBelowTheCursorIsAHubFault() throws {
        try SyncRound.checkForward(last: 8, cursor: 7)
        for last: Int64 in [7, 3] {
            #expect {
                try SyncRound.checkForward(last: last, cursor: 7)
            } throws: { error in
                guard let error = error as? SyncServiceError, case .hubWentBack(last, 7) = error else { return false }
                return error.description.contains("the hub is faulty")
            }
        }
    }
}
