@testable import LedgerlyCLI
import Testing

/// Issue 45, item 17: a failed round of `ledgerly sync now` exits by what failed, never 3 (which
/// says a Ledgerly service did not answer: ledgerly-sync did). The hub out of reach is 5, worth
/// retrying as is; a round the hub or the store refused is 1, something to fix (D423).
@Suite struct SyncNowExitTests {
    @Test func theHubOutOfReachIsFiveAndARefusedRoundIsOne() {
        let unreachable = SyncNowCommand.failure("the sync hub at hub.home.arpa:5432 is unreachable: Connection refused", hubUnreachable: true)
        #expect(unreachable.status == .hubUnreachable && unreachable.status.rawValue == 5)
        #expect(unreachable.message.hasPrefix("sync did not reach the hub: "))
        let refused = SyncNowCommand.failure("the sync hub at hub.home.arpa:5432 refused user \"me\": password authentication failed", hubUnreachable: false)
        #expect(refused.status == .refused)
        #expect(refused.message.hasPrefix("the sync round failed: "))
        #expect(ExitStatus.helpText.contains("  5   the sync hub could not be reached"))
    }
}
