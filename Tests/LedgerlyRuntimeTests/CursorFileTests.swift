import Foundation
import LedgerlyRuntime
import Testing

/// A subscriber's cursor on disk: what it reads before anything was saved, and what it reads back.
@Suite struct CursorFileTests {
    static func home() throws -> LedgerlyHome {
        let home = LedgerlyHome(root: URL(fileURLWithPath: "/tmp").appendingPathComponent("lc-" + String(UUID().uuidString.prefix(8)).lowercased()))
        try home.prepare()
        return home
    }

    @Test func nothingSavedReadsAsTheStartOfTheLog() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let file = CursorFile(home: home, service: "ledgerly-test")
        #expect(file.url.path == home.stateDirectory.appendingPathComponent("ledgerly-test.cursor.json").path)
        #expect(file.load() == FollowerCursor(epoch: nil, seq: 0))
    }

    @Test func aSavedCursorReadsBackAndTheLastSaveWins() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let file = CursorFile(home: home, service: "ledgerly-test")
        try file.save(FollowerCursor(epoch: "e-1", seq: 41))
        try file.save(FollowerCursor(epoch: "e-2", seq: 7))
        #expect(file.load() == FollowerCursor(epoch: "e-2", seq: 7))
        // Another service's cursor is another file.
        #expect(CursorFile(home: home, service: "ledgerly-other").load() == FollowerCursor(epoch: nil, seq: 0))
    }

    @Test func anUnreadableFileReadsAsTheStartOfTheLog() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let file = CursorFile(home: home, service: "ledgerly-test")
        try Data("{\"seq\": \"many\"".utf8).write(to: file.url)
        #expect(file.load() == FollowerCursor(epoch: nil, seq: 0))
    }
}
