import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyWeb
import Testing

/// `/networth/liabilities/ID`: the wallets its history names and the wallets a payment may come from.
@Suite struct LiabilityPaymentPageTests {
    static func wallet(_ id: Int64, _ name: String, archived: Bool) -> WalletRecord {
        WalletRecord(id: id, name: name, icon: nil, currency: "EUR", type: .bank, startingBalance: "0.00", balance: "0.00", institution: nil, sortOrder: 0,
                     includeInNetWorth: true, archived: archived, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z")
    }

    /// A payment made from a wallet archived since is named in the history (as /networth names
    /// it), yet that wallet is not offered for a new payment; before, the page read only the open
    /// wallets, so the history said "wallet 2".
    @Test func theHistoryNamesAnArchivedWalletThatIsNotOfferedAnyMore() {
        let (names, payable) = LiabilityPaymentPage.wallets([Self.wallet(1, "Checking", archived: false), Self.wallet(2, "Old account", archived: true)])
        #expect(names[2] == "Old account")
        #expect(names[1] == "Checking")
        #expect(payable.map(\.id) == [1])
    }
}
