import GRDB
@testable import LedgerlyStore
import Testing

/// `BoundStatement` binds a load's rows with SQLite's own calls and keeps one statement for a
/// whole batch without clearing its bindings between rows (D356, D381). What it must keep: each
/// value stored exactly as GRDB's own binding stores it, no row's value left behind for the next
/// row, and no statement run with a parameter left unbound.
@Suite struct BoundStatementTests {
    private static let table = "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT, amount INTEGER, flag INTEGER)"
    private static let insert = "INSERT INTO t (id, label, amount, flag) VALUES (?, ?, ?, ?)"

    private struct Row: Equatable {
        let id: Int64
        let label: String?
        let amount: Int64?
        let flag: Bool
    }

    /// Each row through one statement kept across rows (`rebound()`), as a load does.
    private func insertKept(_ rows: [Row], _ db: Database) throws {
        var kept: BoundStatement?
        for row in rows {
            var statement = try kept?.rebound() ?? BoundStatement(db, cached: Self.insert)
            statement.bind(row.id, at: 1)
            statement.bind(row.label, at: 2)
            statement.bind(row.amount, at: 3)
            statement.bind(row.flag, at: 4)
            kept = statement
            try statement.execute()
        }
    }

    private func readBack(_ db: Database) throws -> [Row] {
        try GRDB.Row.fetchAll(db, sql: "SELECT id, label, amount, flag FROM t ORDER BY id").map {
            Row(id: $0["id"], label: $0["label"], amount: $0["amount"], flag: $0["flag"])
        }
    }

    @Test func everyValueIsStoredExactlyAndNoneIsLeftForTheNextRow() throws {
        let long = String(repeating: "Grüße, 東京 🚆 ", count: 20_000)
        // Small strings (up to 15 bytes) live inside the `String` value itself, larger ones in
        // storage of their own; a nil after a text, and a text after a nil, on one statement.
        let rows = [
            Row(id: 1, label: "Rent", amount: 120_000, flag: true),
            Row(id: 2, label: nil, amount: nil, flag: false),
            Row(id: 3, label: "", amount: 0, flag: true),
            Row(id: 4, label: "Café Ünïcödé ✓", amount: -1, flag: false),
            Row(id: 5, label: long, amount: Int64.max, flag: true),
            Row(id: 6, label: "e\u{301}", amount: Int64.min, flag: false),
            Row(id: 7, label: nil, amount: 5, flag: true),
        ]
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: Self.table)
            try insertKept(rows, db)
            #expect(try readBack(db) == rows)
            // An empty text is text, not NULL.
            #expect(try String.fetchAll(db, sql: "SELECT typeof(label) FROM t ORDER BY id") == ["text", "null", "text", "text", "text", "text", "null"])
        }
    }

    @Test func textIsBoundAsGRDBBindsIt() throws {
        // A `String` passed to C ends at its first NUL; GRDB's binding and this one agree.
        let texts = ["plain", "before\u{0}after", "\u{0}", "Zürich", "", String(repeating: "x", count: 40) + "\u{0}tail"]
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: Self.table)
            try insertKept(texts.enumerated().map { Row(id: Int64($0.offset + 1), label: $0.element, amount: nil, flag: false) }, db)
            for (offset, text) in texts.enumerated() {
                try db.execute(sql: Self.insert, arguments: [1_000 + offset, text, nil, false])
            }
            let ours = try String?.fetchAll(db, sql: "SELECT label FROM t WHERE id < 1000 ORDER BY id")
            let grdb = try String?.fetchAll(db, sql: "SELECT label FROM t WHERE id >= 1000 ORDER BY id")
            #expect(ours == grdb)
            #expect(ours.first == "plain")
        }
    }

    @Test func aParameterLeftUnboundStopsTheStatement() async {
        // A kept statement still holds the previous row's values: running it with one parameter
        // not bound again would write that value silently, so it is a programming error.
        await #expect(processExitsWith: .failure) {
            let queue = try DatabaseQueue()
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT, amount INTEGER, flag INTEGER)")
                var first = try BoundStatement(db, cached: "INSERT INTO t (id, label, amount, flag) VALUES (?, ?, ?, ?)")
                first.bind(1, at: 1)
                first.bind("kept", at: 2)
                first.bind(10, at: 3)
                first.bind(true, at: 4)
                try first.execute()
                var second = first.rebound()
                second.bind(2, at: 1)
                second.bind(20, at: 3)
                second.bind(false, at: 4)
                try second.execute()
            }
        }
    }
}
