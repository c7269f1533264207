import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyTesting
import Testing

/// `TransactionImportCoding` writes `tx.import` frames by hand (D359); they must be the bytes
/// `MessageCoding.encode` (Foundation's `JSONEncoder`, sorted keys) gives for the same request.
@Suite struct TransactionImportCodingTests {
    @Test func writesTheBytesJSONEncoderWritesOnGeneratedBatches() throws {
        for (index, envelope) in Self.generatedBatches().enumerated() {
            let expected = try MessageCoding.encode(envelope)
            let written = TransactionImportCoding.encode(envelope)
            #expect(written == expected, "batch \(index): \(String(decoding: written.prefix(300), as: UTF8.self))")
        }
    }

    /// A transaction keeps its rate snapshots as this text in the database.
    @Test func writesSnapshotsAsJSONEncoderDoes() throws {
        for envelope in Self.generatedBatches() {
            for kept in envelope.body.items.compactMap(\.kept) {
                for snapshot in [kept.conversion, kept.baseConversion, kept.incomingBaseConversion].compactMap({ $0 }) {
                    #expect(TransactionExportCoding.json(snapshot) == String(decoding: try MessageCoding.encode(snapshot), as: UTF8.self))
                }
            }
        }
    }

    /// The store reads a batch from its parsed frame (D359): the same request `JSONDecoder` reads.
    @Test func readsWhatJSONDecoderReadsOnGeneratedBatches() throws {
        for envelope in Self.generatedBatches() {
            let frame = try MessageCoding.encode(envelope)
            let body = try MessageCoding.encode(envelope.body)
            let sent = try #require(body.withUnsafeBytes { SentJSON(parsing: $0.bindMemory(to: UInt8.self)) })
            let read = try #require(TransactionImportRequest(sent: sent))
            #expect(read == envelope.body)
            let decoded = try RequestDecoding.request(TransactionImportRequest.self, from: frame)
            #expect(decoded.body == envelope.body)
            #expect([decoded.id, decoded.type, decoded.ts] == [envelope.id, envelope.type, envelope.ts])
            #expect(decoded.key == envelope.key && decoded.re == envelope.re)
        }
    }

    /// What the fast reader does not accept, `JSONDecoder` words as before: the field is named.
    @Test func aMistypedFieldIsStillNamedByTheDecoder() throws {
        let frame = Data(#"{"v":1,"id":"a","type":"tx.import","ts":"2026-03-01T10:00:00.000Z","key":"k","body":{"importId":"x","items":[{"transaction":{"kind":"expense","walletId":"one","amount":"1","date":"2026-03-01"}}]}}"#.utf8)
        let sent = try #require(Data(#"{"importId":"x","items":[{"transaction":{"kind":"expense","walletId":"one","amount":"1","date":"2026-03-01"}}]}"#.utf8)
            .withUnsafeBytes { SentJSON(parsing: $0.bindMemory(to: UInt8.self)) })
        #expect(TransactionImportRequest(sent: sent) == nil)
        #expect(throws: ErrorBody.self) { try RequestDecoding.request(TransactionImportRequest.self, from: frame) }
        do {
            _ = try RequestDecoding.request(TransactionImportRequest.self, from: frame)
        } catch {
            #expect(error.field == "body.items[0].transaction.walletId")
        }
    }

    /// Forty batches of fifty items with everything optional present or not, and text that needs
    /// escaping or care.
    static func generatedBatches() -> [Envelope<TransactionImportRequest>] {
        var random = SplitMix(seed: 359)
        // Text with what needs escaping or care: quotes, backslashes, slashes, controls, DEL,
        // non-ASCII letters, an emoji, the line and paragraph separators.
        let pieces = ["Bakery", "\"quoted\"", "back\\slash", "a/b", "tab\there", "line\nbreak", "\u{1}\u{1F}\u{7F}", "Café", "日本食", "🧾", "\u{2028}\u{2029}", "", " "]
        func text() -> String { (0..<Int(random.next() % 3 + 1)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { random.next() % 2 == 0 ? value() : nil }
        func snapshot() -> RateSnapshot {
            RateSnapshot(base: "USD", quote: "EUR", rate: "0.9\(random.next() % 1000)", profileId: maybe(Int64(random.next() % 9)), profileName: maybe(text()),
                         source: text(), asOf: "2026-03-0\(random.next() % 9 + 1)T16:00:00.000Z", override: random.next() % 2 == 0, stale: random.next() % 2 == 0,
                         legs: maybe([RateSnapshotLeg(base: "EUR", quote: "USD", rate: "1.08", inverted: random.next() % 2 == 0)]))
        }
        return (0..<40).map { batch in
            let items = (0..<50).map { index -> TransactionImportItem in
                let kept = maybe(KeptAmounts(walletAmount: maybe("12.50"), baseAmount: maybe("11.00"), conversion: maybe(snapshot()), baseConversion: maybe(snapshot()),
                                             incomingBaseAmount: maybe("3"), incomingBaseConversion: maybe(snapshot()), id: maybe(Int64(index + 1)),
                                             incomingId: maybe(Int64(index + 2)), importId: maybe(text()), createdAt: maybe("2026-03-01T10:00:00.000Z"), updatedAt: maybe(text())))
                if random.next() % 4 == 0 {
                    return TransactionImportItem(line: maybe(index), importKey: maybe(text()), transfer: TransferCreateRequest(
                        fromWalletId: Int64(random.next() % 9), toWalletId: Int64(random.next() % 9), amount: "7.25", toAmount: maybe("1200"),
                        date: "2026-03-04", notes: maybe(text()), tags: maybe([text(), text()])), kept: kept)
                }
                return TransactionImportItem(line: maybe(index), importKey: maybe(text()), transaction: TransactionCreateRequest(
                    kind: random.next() % 2 == 0 ? .expense : .income, walletId: Int64(random.next() % 1_000_000_000_000), amount: "-12.\(random.next() % 100)",
                    currency: maybe("JPY"), rate: maybe("161.25"), categoryId: maybe(Int64(random.next() % 30)), notes: maybe(text()), date: "2026-03-0\(random.next() % 9 + 1)",
                    tags: maybe((0..<Int(random.next() % 3)).map { _ in text() }), attachmentPath: maybe("/home/me/receipts/\(text()).pdf"),
                    splits: maybe([SplitPart(amount: "6", categoryId: 3, memo: maybe(text())), SplitPart(amount: "4", categoryId: 4)])), kept: kept)
            }
            return Envelope(type: "tx.import", body: TransactionImportRequest(importId: text(), items: items, dryRun: maybe(batch % 3 == 0)),
                            key: maybe("key-\(batch)"), re: maybe("re"))
        }
    }
}
