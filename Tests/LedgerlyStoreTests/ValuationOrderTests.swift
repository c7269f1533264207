import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Two valuations of one asset on one day: the one recorded later is its value, whatever local
/// ids the device gave them. Sync keeps `created_at` but not ids, so a device that numbered the
/// two the other way round must still show the same value and net worth (issue 44, convergence).
@Suite struct ValuationOrderTests {
    @Test func theLaterRecordedValuationOfADayIsTheValueWhateverItsId() async throws {
        let store = try await Store()
        try store.setClock(offsetSeconds: Int64(Timestamp.parse("2026-11-15T12:00:00Z")!.timeIntervalSinceNow))
        let asset = try await store.call(ManualAssetCreateRequest(name: "Boat", value: "100", currency: "EUR", valuedOn: "2026-01-01"))
        _ = try await store.call(ManualAssetRevalueRequest(id: asset.id, value: "200", date: "2026-02-01"))
        let both = try await store.call(ManualAssetRevalueRequest(id: asset.id, value: "300", date: "2026-02-01"))
        let ids = try #require(both.valuations?.map(\.id))
        #expect(ids.count == 3)
        // The 200 (lower id) was recorded after the 300 elsewhere and synced here later.
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE asset_valuations SET created_at = '2026-11-15T12:00:09.000Z' WHERE id = ?", arguments: [ids[1]])
            try db.execute(sql: "UPDATE asset_valuations SET created_at = '2026-11-15T12:00:05.000Z' WHERE id = ?", arguments: [ids[2]])
        }
        let shown = try await store.call(ManualAssetGetRequest(id: asset.id))
        #expect(shown.value == "200.00")
        #expect(shown.valuations?.map(\.value) == ["100.00", "300.00", "200.00"])
        let netWorth = try await store.call(NetWorthRequest(at: "2026-02-28"))
        #expect(netWorth.figures.totalAssets == "200.00")
    }
}
