import Foundation
import LedgerlyCore
import LedgerlyProtocol
import Testing

/// The field lists that make the strict check of `tx.import` cheap must name exactly each type's
/// stored properties (its JSON keys), and the check must still name the field at fault.
@Suite struct KnownFieldsTests {
    static let snapshot = RateSnapshot(base: "JPY", quote: "EUR", rate: "0.00569", profileId: 1, profileName: "official", source: "ecb",
                                       asOf: "2026-11-20T14:15:00Z", override: false, stale: false,
                                       legs: [RateSnapshotLeg(base: "EUR", quote: "JPY", rate: "175.68", inverted: true)])

    static var samples: [(any KnownFields.Type, Any)] {
        [
        (TransactionImportRequest.self, TransactionImportRequest(importId: "i", items: [])),
        (TransactionImportItem.self, TransactionImportItem()),
        (TransactionCreateRequest.self, TransactionCreateRequest(kind: .expense, walletId: 1, amount: "1", date: "2026-11-21")),
        (TransferCreateRequest.self, TransferCreateRequest(fromWalletId: 1, toWalletId: 2, amount: "1", date: "2026-11-21")),
        (SplitPart.self, SplitPart(amount: "1", categoryId: 1)),
        (KeptAmounts.self, KeptAmounts()),
        (RateSnapshot.self, snapshot),
        (RateSnapshotLeg.self, snapshot.legs![0]),
        ]
    }

    @Test func everyListNamesExactlyTheStoredProperties() {
        for (type, sample) in Self.samples {
            let properties = Set(Mirror(reflecting: sample).children.compactMap(\.label))
            #expect(Set(type.fields.keys) == properties, "\(type)")
        }
    }

    static func frame(_ body: String) -> Data {
        Data(#"{"v":1,"id":"a","type":"tx.import","ts":"2026-11-21T12:00:00Z","key":"k","body":\#(body)}"#.utf8)
    }

    @Test(arguments: [
        (#"{"importId":"i","items":[],"dryrun":true}"#, "body.dryrun"),
        (#"{"importId":"i","items":[{"transaction":{"kind":"expense","walletId":1,"amount":"1","date":"2026-11-21","notse":"x"}}]}"#, "body.items[0].transaction.notse"),
        (#"{"importId":"i","items":[{},{"transfer":{"fromWalletId":1,"toWalletId":2,"amount":"1","date":"2026-11-21","fee":"1"}}]}"#, "body.items[1].transfer.fee"),
        (#"{"importId":"i","items":[{"kept":{"conversion":{"base":"JPY","quote":"EUR","rate":"1","source":"x","asOf":"t","override":false,"stale":false,"legs":[{"base":"a","quote":"b","rate":"1","inverted":false,"extra":1}]}}}]}"#, "body.items[0].kept.conversion.legs[0].extra"),
        (#"{"importId":"i","items":[{"line":1,"lien":2}]}"#, "body.items[0].lien"),
        (#"{"importId":"i","items":[{"transaction":{"kind":"expense","walletId":1,"amount":"2","date":"2026-11-21","splits":[{"amount":"2","categoryId":3,"note":"x"}]}}]}"#, "body.items[0].transaction.splits[0].note"),
        (#"{"importId":"i","items":[{"kept":{"baseAmount":"1","walletAmuont":"2"}}]}"#, "body.items[0].kept.walletAmuont"),
        (#"{"importId":"i","items":[{"kept":{"conversion":{"base":"JPY","quote":"EUR","rate":"1","source":"x","asOf":"t","override":false,"stale":false,"fresh":true}}}]}"#, "body.items[0].kept.conversion.fresh"),
        (#"{"importId":"i","items":[{"zeta":1,"alpha":{}}]}"#, "body.items[0].alpha"),
    ])
    func unknownFieldsInAnImportAreNamed(body: String, field: String) throws {
        #expect {
            _ = try RequestDecoding.request(TransactionImportRequest.self, from: Self.frame(body))
        } throws: { error in
            (error as? ErrorBody)?.field == field
        }
        // The reader that skips the unknown-field check must refuse the body itself (D382).
        let sent = try #require(Data(body.utf8).withUnsafeBytes { SentJSON(parsing: $0.bindMemory(to: UInt8.self)) })
        #expect(TransactionImportRequest(sent: sent) == nil)
    }

    /// An unknown member sent as null is what the strict check has always let through (a client
    /// may send null for an absent field), at every depth.
    @Test func unknownMembersSentAsNullAreAccepted() throws {
        let body = #"{"importId":"i","extra":null,"items":[{"line":1,"lien":null,"transaction":{"kind":"expense","walletId":1,"amount":"2","date":"2026-11-21","notse":null,"splits":[{"amount":"2","categoryId":3,"note":null}]},"kept":{"walletAmuont":null}}]}"#
        let request = try RequestDecoding.request(TransactionImportRequest.self, from: Self.frame(body))
        #expect(request.body.items.count == 1)
        #expect(request.body.items[0].transaction?.splits?.first?.categoryId == 3)
    }

    @Test func theBodyHashIgnoresKeyOrderAndNullMembersButNotValues() throws {
        let one = try RequestDecoding.decode(TransactionImportRequest.self, from: RequestDecoding.parse(Self.frame(#"{"importId":"i","items":[{"line":2}]}"#)))
        let same = try RequestDecoding.decode(TransactionImportRequest.self, from: RequestDecoding.parse(Self.frame(#"{"items":[{"line":2}], "importId":"i"}"#)))
        let other = try RequestDecoding.decode(TransactionImportRequest.self, from: RequestDecoding.parse(Self.frame(#"{"importId":"i","items":[{"line":3}]}"#)))
        let withNull = try RequestDecoding.decode(TransactionImportRequest.self, from: RequestDecoding.parse(Self.frame(#"{"importId":"i","items":[{"line":2,"kept":null}],"dryRun":null}"#)))
        #expect(one.bodyHash == same.bodyHash)
        #expect(one.bodyHash == withNull.bodyHash)
        #expect(one.bodyHash != other.bodyHash)
    }
}
