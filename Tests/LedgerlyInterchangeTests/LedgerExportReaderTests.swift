import Foundation
import LedgerlyCore
import LedgerlyInterchange
import LedgerlyProtocol
import Testing

/// `LedgerExportReader`: an export read a record at a time, checked as it goes.
@Suite struct LedgerExportReaderTests {
    static let header = LedgerExport.Header(
        exportedAt: "2026-11-24T10:00:00Z",
        settings: SettingsRecord(baseCurrency: "EUR", exchangeMode: .official, priceRefreshIntervalMinutes: 60, staleFiatMinutes: 60, staleCryptoMinutes: 15,
                                 staleEquityMinutes: 60, allocationDriftPoints: 5, speculativeGroups: [], cloudSync: false, notifications: NotificationSettings(),
                                 onboardingCompleted: true, onboardingProgress: nil, updatedAt: "2026-11-24T10:00:00Z"),
        wallets: ExportFixtures.wallets, categories: ExportFixtures.categories, tags: [], budgets: [], rateProfiles: [], rates: [], goals: [], recurring: [],
        alerts: [], conversions: [])

    /// Notes that look like JSON structure: the reader must follow strings, not count brackets in them.
    static let records: [TransactionRecord] = (1...250).map(record)

    static func record(_ id: Int) -> TransactionRecord {
        let notes: String = id % 7 == 0 ? #"a "quoted" ]}, {[ \ and / notes"# : "Shop \(id)"
        let tags: [String] = id % 3 == 0 ? ["weekly"] : []
        let amount = "\(id).50"
        return ExportFixtures.transaction(Int64(id), .expense, wallet: 1, amount, "EUR", base: amount, category: 11, notes: notes, tags: tags)
    }

    /// The file exactly as `ledgerly export json` writes it.
    static func exportText(_ records: [TransactionRecord] = records) throws -> String {
        var text = try LedgerExport.opening(header)
        for (index, record) in records.enumerated() { text += try LedgerExport.transaction(record, first: index == 0) }
        return text + LedgerExport.end
    }

    static func readAll(_ reader: LedgerExportReader) throws -> [LedgerExportReader.Located] {
        _ = try reader.readHeader()
        var all: [LedgerExportReader.Located] = []
        while let located = try reader.next() { all.append(located) }
        return all
    }

    @Test func readsEveryRecordInOrderWithItsPositionAndLine() throws {
        let reader = LedgerExportReader(data: Data(try Self.exportText().utf8))
        let header = try reader.readHeader()
        #expect(header.wallets.map(\.id) == Self.header.wallets.map(\.id))
        var all: [LedgerExportReader.Located] = []
        while let located = try reader.next() { all.append(located) }
        #expect(all.map(\.record) == Self.records)
        #expect(all.map(\.position) == Array(1...250))
        // The header is line 1, `"transactions":[` line 2, then one record a line.
        #expect(all.map(\.line) == Array(3...252))
        #expect(try reader.next() == nil)
    }

    @Test func readsAFileInSmallChunksAsItDoesWhole() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.exportText().write(to: file, atomically: true, encoding: .utf8)
        // Chunks far smaller than one record: every value is found across many reads.
        let reader = try LedgerExportReader(path: file.path, chunkSize: 37)
        #expect(try Self.readAll(reader).map(\.record) == Self.records)
        #expect(reader.bytesConsumed == (try Data(contentsOf: file)).count)
    }

    @Test func readsAnyLayoutOfTheSameObject() throws {
        // Pretty-printed, with an unknown member first: what JSONDecoder read, this reads.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let pretty = { (value: any Encodable) in String(decoding: try encoder.encode(value), as: UTF8.self) }
        let records = try Self.records.prefix(20).map { try pretty($0) }.joined(separator: " ,\n  ")
        let text = "{\n  \"comment\" : [1, {\"a\": \"]\"}],\n  \"ledgerly\" : \(try pretty(Self.header)),\n  \"transactions\" : [\n  \(records)\n  ]\n}\n"
        #expect(try Self.readAll(LedgerExportReader(data: Data(text.utf8))).map(\.record) == Array(Self.records.prefix(20)))
        // No transactions at all.
        let empty = try LedgerExport.opening(Self.header) + "]}"
        #expect(try Self.readAll(LedgerExportReader(data: Data(empty.utf8))).isEmpty)
    }

    @Test func aBadRecordIsNamedByPositionLineAndField() throws {
        var lines = try Self.exportText().components(separatedBy: "\n")
        lines[2 + 199] = lines[2 + 199].replacingOccurrences(of: #""walletId":1"#, with: #""walletId":"one""#)
        let reader = LedgerExportReader(data: Data(lines.joined(separator: "\n").utf8))
        _ = try reader.readHeader()
        for _ in 1...199 { _ = try reader.next() }
        let failure = #expect(throws: LedgerExportReader.Failure.self) { try reader.next() }
        #expect(failure?.description.hasPrefix("transaction 200 (line 202): walletId") == true, "\(failure?.description ?? "")")
    }

    @Test func aFileCutShortOrOutOfShapeIsRefused() throws {
        let text = try Self.exportText()
        let cut = String(text.prefix(text.count / 2))
        let short = #expect(throws: LedgerExportReader.Failure.self) { try Self.readAll(LedgerExportReader(data: Data(cut.utf8))) }
        #expect(short?.description.contains("cut short") == true, "\(short?.description ?? "")")

        let missingComma = text.replacingOccurrences(of: "},\n{", with: "}\n{", options: [], range: text.range(of: "},\n{"))
        let comma = #expect(throws: LedgerExportReader.Failure.self) { try Self.readAll(LedgerExportReader(data: Data(missingComma.utf8))) }
        #expect(comma?.description.contains("expected ',' or ']' after transaction") == true, "\(comma?.description ?? "")")

        let trailing = #expect(throws: LedgerExportReader.Failure.self) { try Self.readAll(LedgerExportReader(data: Data((text + "{}").utf8))) }
        #expect(trailing?.description.contains("more after") == true)

        let headerLast = "{\"transactions\":[],\"ledgerly\":" + String(decoding: try JSONEncoder().encode(Self.header), as: UTF8.self) + "}"
        let late = #expect(throws: LedgerExportReader.Failure.self) { try Self.readAll(LedgerExportReader(data: Data(headerLast.utf8))) }
        #expect(late?.description.contains("before its header") == true)

        let notAnExport = #expect(throws: LedgerExportReader.Failure.self) { try Self.readAll(LedgerExportReader(data: Data("[1, 2]".utf8))) }
        #expect(notAnExport?.description.contains("expected a JSON object") == true)
    }
}
