import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Testing

/// `TransactionExportCoding` writes exactly what Foundation's `JSONEncoder` (the protocol's
/// `MessageCoding`) writes, and reads back exactly what `JSONDecoder` reads: the JSON export and
/// every `tx.export` page stay byte for byte what they were (D260).
@Suite struct TransactionExportCodingTests {
    static let snapshot = RateSnapshot(base: "JPY", quote: "EUR", rate: "0.0061576", profileId: 1, profileName: "official", source: "ecb+manual",
                                       asOf: "2026-11-20T16:00:00.000Z", override: false, stale: true,
                                       legs: [RateSnapshotLeg(base: "EUR", quote: "JPY", rate: "162.40", inverted: true), RateSnapshotLeg(base: "EUR", quote: "USD", rate: "1.0850", inverted: false)])
    static let override = RateSnapshot(base: "USD", quote: "EUR", rate: "0.9", profileId: nil, profileName: nil, source: "override",
                                       asOf: "2026-11-20T16:00:00.000Z", override: true, stale: false)

    /// Every member present, every optional absent, and the shapes between.
    static let records: [TransactionRecord] = [
        TransactionRecord(id: 1, kind: .expense, walletId: 1, amount: "84.31", currency: "EUR", categoryId: nil, notes: "Split: shop", date: "2026-11-02",
                          tags: ["weekly", "food/shop"], attachmentPath: "/home/a/receipt.pdf", transfer: nil,
                          splits: [SplitPart(amount: "60.01", categoryId: 3, memo: "veg"), SplitPart(amount: "24.30", categoryId: 5)],
                          walletAmount: "84.31", baseAmount: "84.31", baseCurrency: "EUR", conversion: nil, baseConversion: nil,
                          createdAt: "2026-11-02T10:00:00.000Z", updatedAt: "2026-11-02T10:00:00.000Z"),
        TransactionRecord(id: 2, kind: .income, walletId: 2, amount: "5000", currency: "JPY", categoryId: 7, notes: nil, date: "2026-11-03",
                          tags: [], attachmentPath: nil, transfer: TransferLink(counterpartyWalletId: 1, counterpartyTransactionId: 9_223_372_036_854_775_807),
                          splits: [], walletAmount: "30.79", baseAmount: nil, baseCurrency: "EUR", conversion: snapshot, baseConversion: override,
                          createdAt: "2026-11-03T10:00:00.000Z", updatedAt: "2026-11-04T10:00:00.000Z", importKey: "k/1:2", importId: "csv-1f2e3d4c"),
        TransactionRecord(id: 1_050_145, kind: .expense, walletId: 3, amount: "0.01", currency: "USD", categoryId: -4, notes: "", date: "2021-01-01",
                          tags: [""], attachmentPath: nil, transfer: nil, splits: [], walletAmount: "0.01", baseAmount: nil, baseCurrency: nil,
                          conversion: nil, baseConversion: nil, createdAt: "", updatedAt: "", importKey: nil, importId: nil),
    ]

    /// Text with every character `JSONEncoder` escapes, and some it does not.
    static var awkwardTexts: [String] {
        var texts = (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        texts += ["\u{7F}", "\u{80}", "\u{A0}", "é", "e\u{301}", "\u{2028}\u{2029}", "\u{FEFF}", "€", "😀", "\u{10FFFF}", "a/b", "\\/",
                  "Café \"Zur Post\"\t1/2 \\ line\nnext\r\u{8}\u{C}\u{1B}[0m", String(repeating: "x", count: 300)]
        return texts
    }

    static func foundation(_ value: some Encodable) throws -> [UInt8] { [UInt8](try MessageCoding.encode(value)) }

    @Test func aRecordIsWrittenAsJSONEncoderWritesIt() throws {
        for record in Self.records {
            var bytes: [UInt8] = []
            TransactionExportCoding.append(record, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: try Self.foundation(record), as: UTF8.self))
        }
    }

    @Test func everyCharacterIsEscapedAsJSONEncoderEscapesIt() throws {
        for text in Self.awkwardTexts {
            var record = Self.records[0]
            record.notes = text
            record.tags = [text, "x" + text]
            record.splits[0].memo = text
            record.conversion = Self.snapshot
            record.conversion?.profileName = text
            var bytes: [UInt8] = []
            TransactionExportCoding.append(record, to: &bytes)
            #expect(bytes == (try Self.foundation(record)), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            // And read back as JSONDecoder reads it, to the same bytes.
            let read = try TransactionExportCoding.decodeRecord(bytes)
            #expect(read == record)
            #expect(Array(read.notes!.utf8) == Array(text.utf8))
        }
    }

    @Test func aPageIsWrittenAndReadAsFoundationDoes() throws {
        let pages = [
            TransactionExportReply(transactions: Self.records, nextAfterId: 1_050_145, total: 3),
            TransactionExportReply(transactions: Self.records, nextAfterId: nil, total: nil),
            TransactionExportReply(transactions: [], nextAfterId: nil, total: 0),
        ]
        for page in pages {
            let bytes = TransactionExportCoding.encode(page)
            #expect(bytes == (try Self.foundation(page)))
            let read = try TransactionExportCoding.decodeReply(bytes)
            #expect(read == (try JSONDecoder().decode(TransactionExportReply.self, from: Data(bytes))))
            #expect(TransactionExportCoding.encode(read) == bytes)
        }
    }

    @Test func aListReplyIsWrittenAndReadAsFoundationDoes() throws {
        let replies = [
            TransactionListReply(transactions: Self.records, total: 39_667, next: TransactionListCursor(date: "2026-10-31", id: 1_049_940)),
            TransactionListReply(transactions: Self.records, total: 3),
            TransactionListReply(transactions: [], total: 0),
        ]
        let header = try JSONDecoder().decode(EnvelopeHeader.self, from: Data(#"{"v":1,"id":"req-2","type":"tx.list","ts":"2026-11-21T12:00:00.000Z"}"#.utf8))
        for reply in replies {
            let bytes = TransactionListCoding.encode(reply)
            #expect(bytes == (try Self.foundation(reply)))
            #expect(try TransactionListCoding.decodeReply(bytes) == reply)
            let frame = [UInt8](ReplyBuilder.ok(rawBody: Data(bytes), for: header))
            #expect(TransactionListCoding.decodeReplyFrame(frame, expectedType: "tx.list.ok", re: "req-2") == reply)
            #expect(TransactionListCoding.decodeReplyFrame(frame, expectedType: "tx.list.ok", re: "another") == nil)
            #expect(TransactionListCoding.decodeReplyFrame(frame, expectedType: "tx.export.ok", re: "req-2") == nil)
        }
        let error = ReplyBuilder.error(ErrorBody(code: .notFound, message: "there is no category 9", field: "body.categoryId"), re: "req-2")
        #expect(TransactionListCoding.decodeReplyFrame([UInt8](error), expectedType: "tx.list.ok", re: "req-2") == nil)
    }

    /// Seeded random records: amounts, ids, optional members and texts drawn at random.
    @Test func randomRecordsRoundTripAsFoundationDoes() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let texts = Self.awkwardTexts
        func text() -> String { (0..<next(4)).map { _ in texts[next(texts.count)] }.joined() }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { next(2) == 0 ? nil : value() }
        var records: [TransactionRecord] = []
        for index in 0..<500 {
            let id = Int64(next(2) == 0 ? index : Int(Int32.max) + index)
            records.append(TransactionRecord(
                id: id, kind: next(2) == 0 ? .expense : .income, walletId: Int64(next(9)), amount: "\(next(100_000)).\(next(100))", currency: ["EUR", "USD", "JPY"][next(3)],
                categoryId: maybe(Int64(next(30))), notes: maybe(text()), date: "2026-0\(1 + next(9))-1\(next(10))", tags: (0..<next(3)).map { _ in text() },
                attachmentPath: maybe(text()), transfer: maybe(TransferLink(counterpartyWalletId: Int64(next(9)), counterpartyTransactionId: Int64(next(1_000_000)))),
                splits: (0..<next(3)).map { _ in SplitPart(amount: "\(next(1000)).00", categoryId: Int64(next(30)), memo: maybe(text())) },
                walletAmount: "\(next(1000))", baseAmount: maybe("\(next(1000)).5"), baseCurrency: maybe("EUR"),
                conversion: maybe(next(2) == 0 ? Self.snapshot : Self.override), baseConversion: maybe(Self.snapshot),
                createdAt: text(), updatedAt: text(), importKey: maybe(text()), importId: maybe(text())))
        }
        let page = TransactionExportReply(transactions: records, nextAfterId: records.last?.id, total: records.count)
        let bytes = TransactionExportCoding.encode(page)
        #expect(bytes == (try Self.foundation(page)))
        #expect(try TransactionExportCoding.decodeReply(bytes) == page)

        // The fetching thread steps over every record (escapes included) to find the next page.
        let header = try JSONDecoder().decode(EnvelopeHeader.self, from: Data(#"{"v":1,"id":"req-1","type":"tx.export","ts":"2026-11-21T12:00:00.000Z"}"#.utf8))
        let frame = [UInt8](ReplyBuilder.ok(rawBody: Data(bytes), for: header))
        let next = TransactionExportCoding.nextPage(frame, expectedType: "tx.export.ok", re: "req-1")
        #expect(next?.afterId == records.last?.id)
        #expect(TransactionExportCoding.nextPage(frame, expectedType: "tx.export.ok", re: "req-2") == nil)
        #expect(TransactionExportCoding.nextPage(Array(frame.dropLast(2)), expectedType: "tx.export.ok", re: "req-1") == nil)

        // Read keeping the records' bytes: each is exactly what `append` writes for its record,
        // which `export json` writes in its place (D366).
        let kept = try #require(TransactionExportCoding.decodeReplyFrameKeepingRecords(frame, expectedType: "tx.export.ok", re: "req-1"))
        #expect(kept.reply == page)
        #expect(kept.records.ranges.count == records.count)
        for (record, range) in zip(records, kept.records.ranges) {
            var alone: [UInt8] = []
            TransactionExportCoding.append(record, to: &alone)
            #expect(Array(kept.records.frame[range]) == alone)
        }
        #expect(TransactionExportCoding.decodeReplyFrameKeepingRecords(frame, expectedType: "tx.export.ok", re: "req-2") == nil)

    }

    /// A string's end is found past escaped quotes and backslashes, and a string without its
    /// closing quote is refused.
    @Test func steppingOverAStringHonoursItsEscapes() throws {
        func frame(_ notes: String) -> [UInt8] {
            Array(#"{"body":{"nextAfterId":7,"transactions":[{"notes":"\#(notes)"}]},"id":"x","re":"req-1","ts":"2026-11-21T12:00:00.000Z","type":"tx.export.ok","v":1}"#.utf8)
        }
        for notes in [#"plain"#, #"a \"quoted\" word"#, #"ends in a backslash \\"#, #"\\\"\\"#, #"\u0022"#, ""] {
            #expect(TransactionExportCoding.nextPage(frame(notes), expectedType: "tx.export.ok", re: "req-1")?.afterId == 7, "\(notes)")
        }
        // An escaped quote does not end the string: the rest of the frame is read as its text.
        for unterminated in [#"a \"#, #"a \\\"#] {
            #expect(TransactionExportCoding.nextPage(frame(unterminated), expectedType: "tx.export.ok", re: "req-1") == nil, "\(unterminated)")
        }
    }

    @Test func aReplyFrameIsReadWhenItIsThePageAndLeftToJSONDecoderOtherwise() throws {
        let header = try JSONDecoder().decode(EnvelopeHeader.self, from: Data(#"{"v":1,"id":"req-1","type":"tx.export","ts":"2026-11-21T12:00:00.000Z"}"#.utf8))
        let page = TransactionExportReply(transactions: Self.records, nextAfterId: 3, total: 3)
        for frame in [ReplyBuilder.ok(page, for: header), ReplyBuilder.ok(rawBody: Data(TransactionExportCoding.encode(page)), for: header)] {
            #expect(TransactionExportCoding.decodeReplyFrame([UInt8](frame), expectedType: "tx.export.ok", re: "req-1") == page)
            #expect(TransactionExportCoding.decodeReplyFrame([UInt8](frame), expectedType: "tx.export.ok", re: "another") == nil)
            #expect(TransactionExportCoding.decodeReplyFrame([UInt8](frame), expectedType: "tx.list.ok", re: "req-1") == nil)
            #expect(EnvelopeScan.replyTo([UInt8](frame)) == "req-1")
        }
        let error = ReplyBuilder.error(ErrorBody(code: .validationFailed, message: "body.limit must be 1 to 10000", field: "body.limit"), re: "req-1")
        #expect(TransactionExportCoding.decodeReplyFrame([UInt8](error), expectedType: "tx.export.ok", re: "req-1") == nil)
        #expect(EnvelopeScan.replyTo([UInt8](error)) == "req-1")

        // Members a later store may add are stepped over; shapes this reader does not write are
        // refused (the caller then reads the frame with JSONDecoder).
        let body = String(decoding: TransactionExportCoding.encode(page), as: UTF8.self)
        func frame(_ body: String) -> [UInt8] { Array(#"{"body":\#(body),"id":"x","re":"req-1","ts":"2026-11-21T12:00:00.000Z","type":"tx.export.ok","v":1}"#.utf8) }
        let added = body.replacingOccurrences(of: #""amount":"84.31","#, with: #""amount":"84.31","later":{"a":[1.5e3,null,true,"\u00e9"]},"#)
        #expect(TransactionExportCoding.decodeReplyFrame(frame(added), expectedType: "tx.export.ok", re: "req-1") == page)
        for refused in [body.replacingOccurrences(of: #""id":1,"#, with: #""id":1.0,"#),
                        body.replacingOccurrences(of: #""id":1,"#, with: #""id":01,"#),
                        body.replacingOccurrences(of: #""walletId":1}"#, with: #"}"#),
                        body.replacingOccurrences(of: #""kind":"income""#, with: #""kind":"refund""#),
                        body.replacingOccurrences(of: #"]}"#, with: #"]"#)] {
            #expect(refused != body)
            #expect(TransactionExportCoding.decodeReplyFrame(frame(refused), expectedType: "tx.export.ok", re: "req-1") == nil)
        }
        var invalidUTF8 = frame(body)
        let at = invalidUTF8.firstIndex(of: UInt8(ascii: "w"))!  // inside "weekly"
        invalidUTF8[at] = 0xFF
        #expect(TransactionExportCoding.decodeReplyFrame(invalidUTF8, expectedType: "tx.export.ok", re: "req-1") == nil)
    }
}
