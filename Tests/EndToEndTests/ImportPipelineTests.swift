import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Synchronization
import Testing
import ZeroMQ

extension EndToEndTests {
    /// Large `tx.import` batches are decoded and applied off the store's socket thread (D71) while
    /// small requests can be answered on it. Interleaved, every request must still be answered
    /// and the change events must reach a subscriber in seq order, none missing.
    @Suite struct ImportPipelineTests {
        static func seq(of frames: [Data]) -> Int64? {
            guard frames.count == 2, let object = try? JSONSerialization.jsonObject(with: frames[1]) as? [String: Any] else { return nil }
            return (object["seq"] as? NSNumber)?.int64Value
        }

        @Test func batchesAndSingleWritesInterleaveWithEventsInSeqOrder() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            let wallet = try client.call(WalletCreateRequest(name: "Main", currency: "EUR"))

            let subscriber = try ZMQSocket(context: harness.context, type: .sub)
            try subscriber.subscribe("")
            try subscriber.connect(harness.home.storeEventsEndpoint)
            // A subscription takes effect a moment after connecting: write until an event arrives.
            var firstSeq: Int64?
            var markers = 0
            while firstSeq == nil && markers < 50 {
                markers += 1
                _ = try client.call(TransactionCreateRequest(kind: .expense, walletId: wallet.id, amount: "1.00", notes: "marker \(markers)", date: "2026-11-21"))
                if try subscriber.waitForInput(timeoutMilliseconds: 100), let frames = try subscriber.receive(dontWait: true) {
                    firstSeq = Self.seq(of: frames)
                }
            }
            _ = try #require(firstSeq)
            // Counted from the store's last seq, not from the event received: a heartbeat that
            // came first made the loop write one more marker, whose event may still be queued.
            let first = try #require(harness.status(.store)).lastSeq

            // Batches of 3,000 items (about 400 KB each, over the pipeline's threshold) from one
            // client while another sends single writes.
            let batches = 6, rowsPerBatch = 3_000, singles = 300
            let failures = Mutex<[String]>([])
            let group = DispatchGroup()
            let walletId = wallet.id
            group.enter()
            Thread {
                defer { group.leave() }
                let sender = harness.client(timeoutMilliseconds: 30_000, attempts: 1)
                for batch in 0..<batches {
                    let items = (0..<rowsPerBatch).map { row in
                        TransactionImportItem(line: row + 2, importKey: "b\(batch)-r\(row)", transaction: TransactionCreateRequest(
                            kind: .expense, walletId: walletId, amount: "0.01", notes: "batch \(batch) row \(row) of a large import", date: "2026-11-20"))
                    }
                    do {
                        let reply = try sender.call(TransactionImportRequest(importId: "pipeline-\(batch)", items: items))
                        if reply.imported != rowsPerBatch { failures.withLock { $0.append("batch \(batch) imported \(reply.imported)") } }
                    } catch {
                        failures.withLock { $0.append("batch \(batch): \(error)") }
                    }
                }
            }.start()
            group.enter()
            Thread {
                defer { group.leave() }
                let sender = harness.client(timeoutMilliseconds: 30_000, attempts: 1)
                for index in 0..<singles {
                    do {
                        _ = try sender.call(TransactionCreateRequest(kind: .income, walletId: walletId, amount: "0.02", notes: "single \(index)", date: "2026-11-21"))
                    } catch {
                        failures.withLock { $0.append("single \(index): \(error)") }
                    }
                }
            }.start()
            group.wait()
            #expect(failures.withLock { $0 } == [])

            let last = try #require(harness.status(.store)).lastSeq
            #expect(last == first + Int64(batches + singles))
            var seqs: [Int64] = []
            while seqs.last != last, try subscriber.waitForInput(timeoutMilliseconds: 5_000) {
                while let frames = try subscriber.receive(dontWait: true) {
                    if let seq = Self.seq(of: frames), seq > first { seqs.append(seq) }
                }
            }
            #expect(seqs == Array((first + 1)...last))
            // Nothing lost or doubled: the markers (−1.00 each), the rows (−0.01), the singles (+0.02).
            let balance = try #require(try client.call(WalletListRequest()).wallets.first).balance
            let cents = -100 * markers - batches * rowsPerBatch + 2 * singles
            #expect(balance == (cents < 0 ? "-" : "") + "\(abs(cents) / 100)." + String(format: "%02d", abs(cents) % 100))
        }

        /// Batches planned on the decoding thread (D370) while rates change between them: each
        /// batch must convert with the rate in force when it was written (the last rate stored
        /// before its event), never with one its plan read earlier.
        @Test func ratesSetBetweenBatchesConvertTheBatchesAfterThem() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let client = harness.client()
            let dollars = try client.call(WalletCreateRequest(name: "Dollars", currency: "USD"))
            let day = "2026-03-10"
            // Ends in 1: a rate is stored without trailing zeros.
            @Sendable func rate(_ index: Int) -> String { "1.1\(String(format: "%04d", index))1" }
            // Each rate a second later in the day than the one before: the last one stored is the
            // one in force at the day's end, which converts the day's transactions.
            @Sendable func asOf(_ index: Int) -> String { "\(day)T00:\(String(format: "%02d:%02d", index / 60, index % 60))Z" }
            _ = try client.call(RateSetRequest(base: "EUR", quote: "USD", rate: rate(0), asOf: asOf(0)))
            let first = try #require(harness.status(.store)).lastSeq

            let senders = 2, batchesEach = 4, rowsPerBatch = 3_000
            let replies = Mutex<[String: TransactionImportReply]>([:])
            let failures = Mutex<[String]>([])
            let sending = DispatchGroup()
            let walletId = dollars.id
            for sender in 0..<senders {
                sending.enter()
                Thread {
                    defer { sending.leave() }
                    let client = harness.client(timeoutMilliseconds: 30_000, attempts: 1)
                    for batch in 0..<batchesEach {
                        let importId = "rates-\(sender)-\(batch)"
                        let items = (0..<rowsPerBatch).map { row in
                            TransactionImportItem(line: row + 2, transaction: TransactionCreateRequest(
                                kind: .expense, walletId: walletId, amount: "\(10 + row % 7).\(String(format: "%02d", row % 100))", notes: "\(importId) row \(row) converted at the day's rate", date: day))
                        }
                        do {
                            let reply = try client.call(TransactionImportRequest(importId: importId, items: items))
                            replies.withLock { $0[importId] = reply }
                        } catch {
                            failures.withLock { $0.append("\(importId): \(error)") }
                        }
                    }
                }.start()
            }
            let done = Atomic(false)
            let setter = DispatchGroup()
            setter.enter()
            Thread {
                defer { setter.leave() }
                let client = harness.client(timeoutMilliseconds: 30_000, attempts: 1)
                var index = 1
                while !done.load(ordering: .acquiring) && index < 3_600 {
                    do {
                        _ = try client.call(RateSetRequest(base: "EUR", quote: "USD", rate: rate(index), asOf: asOf(index)))
                    } catch {
                        failures.withLock { $0.append("rate \(index): \(error)") }
                    }
                    index += 1
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }.start()
            sending.wait()
            done.store(true, ordering: .releasing)
            setter.wait()
            #expect(failures.withLock { $0 } == [])

            // The change log in seq order: each `rates.updated` is the next rate stored.
            var events: [ChangeEvent] = []
            var after = first
            while true {
                let page = try client.call(EventsSinceRequest(after: after, limit: 1_000))
                events += page.events
                guard let last = page.events.last, last.seq < page.lastSeq else { break }
                after = last.seq
            }
            var ratesStored = 0
            var batchesAfterARate = Set<Int>()
            let imported = replies.withLock { $0 }
            #expect(imported.count == senders * batchesEach)
            for event in events {
                switch event.type {
                case "rates.updated":
                    ratesStored += 1
                case "tx.imported":
                    let reply = try #require(imported[event.id])
                    batchesAfterARate.insert(ratesStored)
                    for id in [reply.firstId, reply.lastId].compactMap({ $0 }) {
                        let recorded = try client.call(TransactionGetRequest(id: id))
                        #expect(recorded.baseConversion?.legs?.first?.rate == rate(ratesStored), "\(event.id), transaction \(id), after \(ratesStored) rates")
                    }
                default:
                    continue
                }
            }
            // Rates did land between batches (else this test showed nothing).
            #expect(batchesAfterARate.count > 1)
        }
    }
}
