import Foundation
import GRDB
import Logging
@testable import LedgerlyStore
import Testing

/// The running store copies its write-ahead log back into the database file on a thread of its
/// own (`BackgroundCheckpointer`, D374): the copy happens while writes go on, the log stays
/// bounded however long they go on, and what was written reads back the same.
@Suite struct BackgroundCheckpointerTests {
    /// 256 KiB a transaction, 64 pages of 4 KiB.
    private static let rowBytes = 256 << 10

    private func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    /// One transaction per row of `rowBytes` into `scratch`, after each one `each`.
    private func writeRows(_ ids: Range<Int>, to store: Store, each: () -> Void = {}) async throws {
        for id in ids {
            try await store.database.pool.write { db in
                try db.execute(sql: "INSERT INTO scratch (id, bytes) VALUES (?, zeroblob(?))", arguments: [id, Self.rowBytes])
            }
            each()
        }
    }

    @Test func theLogIsCopiedBackAndStaysBoundedWhileWritesGoOn() async throws {
        let store = try await Store(setUp: false)
        let url = store.folder.appendingPathComponent("ledgerly.sqlite")
        let log = URL(fileURLWithPath: url.path + "-wal")
        let checkpointer = try BackgroundCheckpointer(database: store.database, durability: .normal)
        try await store.database.pool.write { db in try db.execute(sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)") }
        let sizeBefore = fileSize(url)

        // 3,000 pages: past the threshold, below the writer's own limit. Only the background
        // checkpoint can have copied them into the database file.
        try await writeRows(0..<48, to: store)
        let deadline = ContinuousClock.now + .seconds(20)
        while fileSize(url) < sizeBefore + 1_000 * 4_096, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(fileSize(url) >= sizeBefore + 1_000 * 4_096, "the database file did not grow: no checkpoint ran")

        // 25,000 pages more, three times the writer's limit: the log is restarted on the way
        // instead of holding all of them (the writer's own checkpoint waits for a background one
        // still running); without the writer's own it would hold them all.
        var largestLog = 0
        try await writeRows(48..<438, to: store) { largestLog = max(largestLog, fileSize(log)) }
        // Twice the limit of 8,000 pages, while 109 MB are written.
        #expect(BackgroundCheckpointer.limitPages == 8_000)
        #expect(largestLog < 2 * 8_000 * 4_096, "the log reached \(largestLog) bytes")
        checkpointer.stop()

        // Everything written reads back, and the store's own fold at its stop empties the log.
        let (count, bytes) = try await store.database.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM scratch") ?? 0, try Int.fetchOne(db, sql: "SELECT sum(length(bytes)) FROM scratch") ?? 0)
        }
        #expect(count == 438)
        #expect(bytes == 438 * Self.rowBytes)
        // The fold leaves one frame at most: the header it rewrites after the checkpoint.
        store.database.foldWriteAheadLog(logger: Logger(label: "test"))
        #expect(fileSize(log) <= 32 + 24 + 4_096)
    }

    @Test func afterStopSQLitesOwnCheckpointRunsAgain() async throws {
        let store = try await Store(setUp: false)
        let url = store.folder.appendingPathComponent("ledgerly.sqlite")
        let checkpointer = try BackgroundCheckpointer(database: store.database, durability: .normal)
        checkpointer.stop()
        try await store.database.pool.write { db in try db.execute(sql: "CREATE TABLE scratch (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)") }
        let sizeBefore = fileSize(url)
        try await writeRows(0..<48, to: store)
        // The commits that took the log past 1,000 pages copied it back themselves, at once.
        #expect(fileSize(url) >= sizeBefore + 1_000 * 4_096)
    }
}
