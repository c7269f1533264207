import Foundation
@testable import LedgerlySync
import Testing

/// `sync devices` follows the hub's retirements, which are not verified there (D483): a hostile
/// hub's loop must neither hang nor name a ledger twice (a duplicate trapped ledgerly-sync).
@Suite struct SyncDeviceListerTests {
    let a = UUID(), b = UUID(), c = UUID()

    func retirement(_ ledger: UUID, to successor: UUID) -> HubRetirement {
        HubRetirement(ledgerId: ledger, successorId: successor, retiredDevices: [], sealed: Data(), retiredAt: Date())
    }

    @Test func followsTheChainNewestFirst() {
        #expect(SyncDeviceLister.ledgers(of: b, retirements: [retirement(a, to: b)]) == [b, a])
        #expect(SyncDeviceLister.ledgers(of: a, retirements: [retirement(a, to: b)]) == [b, a])
        #expect(SyncDeviceLister.ledgers(of: c, retirements: [retirement(a, to: b), retirement(b, to: c)]) == [c, b, a])
    }

    @Test func aLedgerRetiredInFavourOfItselfIsListedOnce() {
        #expect(SyncDeviceLister.ledgers(of: a, retirements: [retirement(a, to: a)]) == [a])
    }

    @Test func twoLedgersRetiredInFavourOfEachOtherAreListedOnceEach() {
        let ledgers = SyncDeviceLister.ledgers(of: a, retirements: [retirement(a, to: b), retirement(b, to: a)])
        #expect(ledgers.count == 2 && Set(ledgers) == [a, b])
    }
}
