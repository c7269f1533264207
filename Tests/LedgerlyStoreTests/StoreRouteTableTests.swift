import LedgerlyProtocol
import LedgerlyRuntime
@testable import LedgerlyStore
import Testing

/// The store's route table: every store-owned message type once, reads as reads, writes as writes.
@Suite struct StoreRouteTableTests {
    @Test func everyStoreMessageTypeIsRegisteredExactlyOnce() {
        let routes = StoreRouteTable.all(startedAt: "").routes
        #expect(routes.duplicates.isEmpty, "added twice: \(routes.duplicates)")
        // Each answered type appears once; `rates.refresh` is left to the rates service, `sync.connect`
        // and `sync.now` to the sync service.
        let answered = routes.requestTypes.map { $0.messageType }
        #expect(Set(answered).count == answered.count)
        let elsewhere = Set(routes.knownRequestTypes.map { $0.messageType }).subtracting(answered)
        #expect(elsewhere == [RatesRefreshRequest.messageType, SyncConnectRequest.messageType, SyncNowRequest.messageType,
                              SyncRekeyRequest.messageType, SyncDevicesRequest.messageType])
        // That no type is missing is checked against protocol/examples (ProtocolFolderTests).
    }

    @Test func aSecondRegistrationIsKeptAsADuplicateNotSilentlyIgnored() {
        var table = StoreRouteTable.all(startedAt: "")
        table.read(WalletListRequest.self, WalletHandlers.list)
        table.answeredElsewhere(TagListRequest.self, answeredBy: "nobody")
        #expect(table.routes.duplicates == [WalletListRequest.messageType, TagListRequest.messageType])
    }
}
