import Dispatch
import FoundationEssentials
import LedgerlyFiles
import Glibc
import LedgerlyInterchange
import LedgerlyProtocol
import LedgerlyRuntime
import Synchronization

/// The export file of `ledgerly import json`, read twice: once to check every transaction before
/// anything is written, once to send them. Standard input ("-") is copied to a temporary file
/// first (in chunks: the copy is on disk, not in memory).
struct RestoreSource {
    let path: String
    private let temporary: Bool

    init(_ file: String) throws {
        guard file == "-" else {
            guard FileManager.default.isReadableFile(atPath: file) else { throw CLIFailure(message: "cannot read \(file)", status: .refused) }
            path = file
            temporary = false
            return
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerly-import-\(UUID().uuidString.prefix(8)).json")
        let out: PosixFile
        do { out = try PosixFile.creatingNew(copy.path) } catch {
            throw CLIFailure(message: "cannot copy standard input to \(copy.path): \(error.reason)", status: .failure)
        }
        defer { try? out.close() }
        do {
            while case let chunk = try PosixFile.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty { try out.write(chunk) }
        } catch {
            throw CLIFailure(message: "cannot copy standard input to \(copy.path): \(error.reason)", status: .failure)
        }
        path = copy.path
        temporary = true
    }

    func reader() throws -> LedgerExportReader {
        do { return try LedgerExportReader(path: path) } catch { throw CLIFailure(message: error.description, status: .refused) }
    }

    /// The file's transactions, past its header, decoded on a second thread as they are found
    /// (`PipelinedLedgerExportReader`, D367): for the checking pass, which runs while the store
    /// waits and a core is free.
    func records(file: String) throws -> PipelinedLedgerExportReader {
        let reader = try reader()
        _ = try ImportCommand.JSON.header(of: reader, file: file)
        return PipelinedLedgerExportReader(reader)
    }

    func remove() {
        if temporary { try? FileManager.default.removeItem(atPath: path) }
    }
}

extension ImportCommand.JSON {
    /// What the checking pass found: records, and the `tx.import` items they make (a transfer's
    /// two records are one item).
    struct Checked {
        let records: Int
        let items: Int
    }

    /// Reads every transaction and checks it against the header (as the restore will send it),
    /// keeping nothing but the transfer legs still waiting for their other leg.
    static func check(_ source: RestoreSource, header: LedgerExport.Header, file: String) throws -> Checked {
        let reader = try source.records(file: file)
        var plan = LedgerRestorePlan(walletIds: Set(header.wallets.map(\.id)), categoryIds: Set(header.categories.map(\.id)))
        let size = (try? FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int) ?? 0
        var progress = Progress("checking (MB)", total: size >> 20)
        defer { progress.finish() }
        var records = 0
        var items = 0
        do {
            while let located = try reader.next() {
                records += 1
                do {
                    if try plan.item(for: located.record) != nil { items += 1 }
                } catch {
                    throw LedgerExportReader.Failure(description: "transaction \(located.position) (line \(located.line)): \(error)")
                }
                if records % 4_096 == 0 { progress.update(reader.bytesConsumed >> 20) }
            }
        } catch {
            throw CLIFailure(message: "\(file): \(error); nothing was restored", status: .refused)
        }
        guard plan.unmatchedLegs.isEmpty else {
            throw CLIFailure(message: "\(file): transfer legs \(plan.unmatchedLegs.prefix(5).map(String.init).joined(separator: ", ")) have no other leg; nothing was restored", status: .refused)
        }
        return Checked(records: records, items: items)
    }

    /// Reads the transactions again and sends them in `tx.import` batches, two in flight while
    /// the next is read (`BatchSender`).
    /// Batches are cut at `batchSize` items or about 8 MiB of JSON, well under the store's 16 MiB
    /// frame limit. The file was checked (`check`); if it changed since, what differs is refused
    /// here and the caller reports the ledger as part restored.
    static func restoreTransactions(_ source: RestoreSource, header: LedgerExport.Header, checked: Checked, importId: String, batchSize: Int, gateway: Gateway,
                                    file: String) throws -> (imported: Int, duplicates: [TransactionImportDuplicate]) {
        // One thread here: while sending, the store needs both cores (D367).
        let reader = try source.reader()
        _ = try Self.header(of: reader, file: file)
        var plan = LedgerRestorePlan(walletIds: Set(header.wallets.map(\.id)), categoryIds: Set(header.categories.map(\.id)))
        let sender = BatchSender(gateway: gateway, importId: importId)
        var progress = Progress("restoring", total: checked.items)
        defer { progress.finish() }
        var batch: [TransactionImportItem] = []
        var bytes = 0
        var records = 0
        // An item's JSON is at most about twice its records' text (a slash may be escaped) plus its keys.
        let maximumBytes = 8 << 20
        var pendingBytes = 0
        do {
            while let located = try reader.next() {
                records += 1
                pendingBytes += 2 * located.bytes + 256
                guard var item = try plan.item(for: located.record) else { continue }
                item.line = located.line
                if !batch.isEmpty && (batch.count == batchSize || bytes + pendingBytes > maximumBytes) {
                    try sender.send(batch)
                    progress.update(sender.done)
                    batch = []
                    bytes = 0
                }
                batch.append(item)
                bytes += pendingBytes
                pendingBytes = 0
            }
        } catch let failure as CLIFailure {
            sender.abandon()
            throw failure
        } catch {
            sender.abandon()
            throw CLIFailure(message: "\(file) changed since it was checked: \(error)", status: .refused)
        }
        if !batch.isEmpty { try sender.send(batch) }
        let result = try sender.finish()
        guard records == checked.records, plan.unmatchedLegs.isEmpty else {
            throw CLIFailure(message: "\(file) changed since it was checked: \(records) transactions now, \(checked.records) before", status: .refused)
        }
        return result
    }
}

/// Sends `tx.import` batches from two threads of their own, each with its own connection, while
/// the caller reads the next: `send` waits only while two batches are still on their way. With
/// two in flight the store decodes one while it applies the other, and the CLI encodes the next
/// meanwhile (D349); batches may reach the store in either order, which a restore allows (every
/// record keeps its id, and a transfer's legs travel in one item). The first failure stops it;
/// the next `send` or `finish` throws it.
///
/// `@unchecked Sendable`: each sending queue uses its own client alone, the gateway only to word
/// failures (`importBatch(_:on:)` reads nothing it changes), and the counts are behind the mutex.
private final class BatchSender: @unchecked Sendable {
    private struct State {
        var imported = 0
        var done = 0
        var duplicates: [TransactionImportDuplicate] = []
        var failure: CLIFailure?
        var abandoned = false
        var sent = 0
    }

    private let gateway: Gateway
    private let importId: String
    private let lanes: [(queue: DispatchQueue, client: RequestClient)]
    /// Two batches in flight: the next waits here.
    private let slot = DispatchSemaphore(value: 2)
    private let state = Mutex(State())

    init(gateway: Gateway, importId: String) {
        self.gateway = gateway
        self.importId = importId
        lanes = (0..<2).map { (DispatchQueue(label: "ledgerly.import.send.\($0)"), gateway.separateStoreClient()) }
    }

    deinit { lanes.forEach { $0.client.close() } }

    var done: Int { state.withLock { $0.done } }

    func send(_ items: [TransactionImportItem]) throws {
        slot.wait()
        if let failure = state.withLock({ $0.failure }) {
            slot.signal()
            throw failure
        }
        let request = TransactionImportRequest(importId: importId, items: items)
        let lane = state.withLock { state in
            defer { state.sent += 1 }
            return state.sent % lanes.count
        }
        lanes[lane].queue.async { [self] in
            defer { slot.signal() }
            guard !state.withLock({ $0.abandoned || $0.failure != nil }) else { return }
            do {
                let reply = try gateway.importBatch(request, on: lanes[lane].client)
                state.withLock { state in
                    state.imported += reply.imported
                    state.duplicates += reply.duplicates
                    state.done += items.count
                }
            } catch {
                let failure = error as? CLIFailure ?? CLIFailure(message: "\(error)", status: .failure)
                state.withLock { $0.failure = failure }
            }
        }
    }

    /// Waits for the last batch; throws the first failure.
    func finish() throws -> (imported: Int, duplicates: [TransactionImportDuplicate]) {
        lanes.forEach { $0.queue.sync {} }
        return try state.withLock { state in
            if let failure = state.failure { throw failure }
            return (state.imported, state.duplicates)
        }
    }

    /// Sends nothing more (a reading failure), waiting for a batch already on its way.
    func abandon() {
        state.withLock { $0.abandoned = true }
        lanes.forEach { $0.queue.sync {} }
    }
}
