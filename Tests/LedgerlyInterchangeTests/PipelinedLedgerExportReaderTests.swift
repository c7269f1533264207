import Foundation
import LedgerlyInterchange
import LedgerlyProtocol
import Testing

/// `PipelinedLedgerExportReader`: the same records, positions, lines and failures as
/// `LedgerExportReader.next()`, in the same order, whatever the chunk size.
@Suite struct PipelinedLedgerExportReaderTests {
    typealias Fixture = LedgerExportReaderTests

    /// Everything `next()` gives until the end or the first failure.
    struct Reading: Equatable {
        var records: [TransactionRecord] = []
        var positions: [Int] = []
        var lines: [Int] = []
        var failure: String?
    }

    static func plainReading(_ text: String) throws -> Reading {
        let reader = LedgerExportReader(data: Data(text.utf8))
        _ = try reader.readHeader()
        var reading = Reading()
        do {
            while let located = try reader.next() { reading.append(located) }
        } catch {
            reading.failure = error.description
        }
        return reading
    }

    static func pipelinedReading(_ text: String, chunkSize: Int) throws -> Reading {
        let plain = LedgerExportReader(data: Data(text.utf8))
        _ = try plain.readHeader()
        let reader = PipelinedLedgerExportReader(plain, chunkSize: chunkSize)
        var reading = Reading()
        do {
            while let located = try reader.next() { reading.append(located) }
            // Past the end it stays at the end.
            #expect(try reader.next() == nil)
        } catch {
            reading.failure = error.description
        }
        return reading
    }

    @Test(arguments: [1, 7, 64, 250, 1_024])
    func readsWhatThePlainReaderReads(chunkSize: Int) throws {
        let text = try Fixture.exportText()
        let reading = try Self.pipelinedReading(text, chunkSize: chunkSize)
        #expect(reading == (try Self.plainReading(text)))
        #expect(reading.records == Fixture.records)
        #expect(reading.positions == Array(1...250))
        #expect(reading.failure == nil)
    }

    /// Record 120 does not decode and the file is cut short after record 200: the record's
    /// failure comes first, after the 119 records before it, although the reader finds the cut
    /// (further on) before the other thread has decoded record 120 whenever both are in one chunk
    /// or the next chunk was found first.
    @Test(arguments: [1, 7, 64, 250, 1_024])
    func failuresComeInFileOrder(chunkSize: Int) throws {
        var lines = try Fixture.exportText().components(separatedBy: "\n")
        lines[2 + 119] = lines[2 + 119].replacingOccurrences(of: #""walletId":1"#, with: #""walletId":"one""#)
        let text = lines.prefix(2 + 200).joined(separator: "\n")
        let reading = try Self.pipelinedReading(text, chunkSize: chunkSize)
        #expect(reading == (try Self.plainReading(text)))
        #expect(reading.records.count == 119)
        #expect(reading.failure?.hasPrefix("transaction 120 (line 122): walletId") == true, "\(reading.failure ?? "")")

        // Without the bad record, the cut is what is reported, after the 200 records.
        let cut = try Fixture.exportText().components(separatedBy: "\n").prefix(2 + 200).joined(separator: "\n")
        let cutReading = try Self.pipelinedReading(cut, chunkSize: chunkSize)
        #expect(cutReading == (try Self.plainReading(cut)))
        #expect(cutReading.records.count == 200)
        #expect(cutReading.failure?.contains("cut short") == true, "\(cutReading.failure ?? "")")
    }

    @Test func anExportWithoutTransactionsEndsAtOnce() throws {
        let empty = try LedgerExport.opening(Fixture.header) + "]}"
        #expect(try Self.pipelinedReading(empty, chunkSize: 16) == Reading())
    }
}

extension PipelinedLedgerExportReaderTests.Reading {
    mutating func append(_ located: LedgerExportReader.Located) {
        records.append(located.record)
        positions.append(located.position)
        lines.append(located.line)
    }
}
