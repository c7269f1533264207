import Dispatch
import FoundationEssentials
import Synchronization

/// `LedgerExportReader.next()` with the decoding on a second thread: the caller's thread finds
/// the next chunk of records in the file (`nextRaw`) while the other thread decodes the chunk
/// before it, and the records still come out one at a time, in file order.
///
/// Why: finding each record's end and decoding it were each about a third of the CPU of
/// `import json`'s checking pass, which runs alone while the store waits (D250); on two cores the
/// two halves overlap (D367).
///
/// Failures come out in file order too: a record that does not decode is reported before
/// anything the reader found wrong further on, exactly as `next()` would report them. The reader
/// is owned from here on: read its header before handing it over, and use it through this only.
public final class PipelinedLedgerExportReader {
    public typealias Located = LedgerExportReader.Located
    public typealias Failure = LedgerExportReader.Failure

    /// What follows a chunk's records: more chunks, the end of the transactions, or a failure
    /// met while finding the next record.
    enum ChunkEnd: Sendable {
        case more
        case finished
        case failed(Failure)
    }

    private let reader: LedgerExportReader
    private let chunkSize: Int
    private let decoding = DispatchQueue(label: "ledgerly.export-reader.decode")
    /// Chunks handed to the decoding thread, oldest first (two at most).
    private var pending: [DecodedChunk] = []
    /// How the last chunk found ended: only `.more` lets another be found.
    private var foundEnd = ChunkEnd.more
    private var current: [Result<Located, Failure>] = []
    private var currentEnd = ChunkEnd.more
    private var index = 0

    /// `chunkSize`: records found and decoded as one piece of work (about half a megabyte of an
    /// export's JSON at the default).
    public init(_ reader: LedgerExportReader, chunkSize: Int = 1_024) {
        self.reader = reader
        self.chunkSize = max(1, chunkSize)
    }

    /// How far into the file the reader has found records, in bytes (for progress; up to two
    /// chunks ahead of the records given out).
    public var bytesConsumed: Int { reader.bytesConsumed }

    /// The next transaction; nil after the last one.
    public func next() throws(Failure) -> Located? {
        while index == current.count {
            switch currentEnd {
            case .finished: return nil
            case .failed(let failure): throw failure
            case .more: break
            }
            if pending.isEmpty { pending.append(findChunk()) }
            // Finds the chunk after the oldest while the decoding thread works on the oldest.
            if case .more = foundEnd { pending.append(findChunk()) }
            let chunk = pending.removeFirst()
            current = chunk.results()
            currentEnd = chunk.end
            index = 0
        }
        defer { index += 1 }
        return try current[index].get()
    }

    /// Finds up to `chunkSize` records and hands them to the decoding thread.
    private func findChunk() -> DecodedChunk {
        var raws: [LedgerExportReader.Raw] = []
        raws.reserveCapacity(chunkSize)
        var end = ChunkEnd.more
        do {
            while raws.count < chunkSize {
                guard let raw = try reader.nextRaw() else {
                    end = .finished
                    break
                }
                raws.append(raw)
            }
        } catch {
            end = .failed(error)
        }
        foundEnd = end
        return DecodedChunk(raws, end: end, on: decoding)
    }
}

/// One chunk's records, decoded on `queue`; `results()` waits for them.
private final class DecodedChunk: Sendable {
    let end: PipelinedLedgerExportReader.ChunkEnd
    private let decoded = Mutex<[Result<LedgerExportReader.Located, LedgerExportReader.Failure>]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ raws: [LedgerExportReader.Raw], end: PipelinedLedgerExportReader.ChunkEnd, on queue: DispatchQueue) {
        self.end = end
        queue.async { [self] in
            let decoder = JSONDecoder()
            let results = raws.map { raw in Result { () throws(LedgerExportReader.Failure) in try raw.decoded(with: decoder) } }
            decoded.withLock { $0 = results }
            done.signal()
        }
    }

    func results() -> [Result<LedgerExportReader.Located, LedgerExportReader.Failure>] {
        done.wait()
        return decoded.withLock { $0 }
    }
}
