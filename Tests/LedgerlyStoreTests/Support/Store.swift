import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
@testable import LedgerlyStore
import Testing

/// The store's router on a real SQLite database in a temporary folder, without sockets: what
/// every store suite sends its requests to. The folder goes when the store does.
final class Store {
    let folder: URL
    let database: StoreDatabase
    private(set) var router: StoreRouter

    init(setUp: Bool = true) async throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try StoreDatabase(url: folder.appendingPathComponent("ledgerly.sqlite"), durability: .normal)
        router = try StoreRouter(database: database, startedAt: Timestamp.now(), logger: Logger(label: "test"))
        if setUp { _ = try await call(SetupCompleteRequest(baseCurrency: "EUR", exchangeMode: .official, cloudSync: false)) }
    }

    /// From now on the store's clock runs `seconds` ahead of the real one (as
    /// `ledgerly-store --clock-offset` does): time passing, without waiting.
    func setClock(offsetSeconds seconds: Int64) throws {
        router = try StoreRouter(database: database, startedAt: Timestamp.now(), clock: ServiceClock(offsetSeconds: seconds), logger: Logger(label: "test"))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A request's frame as the store receives it (a write with a new key unless one is given).
    static func frame<Request: RequestBody>(_ body: Request, key: String? = nil) throws -> Data {
        try MessageCoding.encode(Envelope(type: Request.messageType.rawValue, body: body, key: Request.isWrite ? (key ?? UUID().uuidString) : nil))
    }

    /// A reply's body, or the error it carries, thrown.
    static func body<Reply: Codable & Sendable>(of outcome: RouterOutcome, as type: Reply.Type) throws -> Reply {
        let header = try MessageCoding.decoder().decode(EnvelopeHeader.self, from: outcome.reply)
        if header.type == "error" { throw try MessageCoding.decoder().decode(Envelope<ErrorBody>.self, from: outcome.reply).body }
        return try MessageCoding.decoder().decode(Envelope<Reply>.self, from: outcome.reply).body
    }

    func send<Request: RequestBody>(_ body: Request, key: String? = nil) async throws -> RouterOutcome {
        router.handle(try Self.frame(body, key: key))
    }

    /// Decodes (and, for `tx.import`, plans) a request now; it is applied when the returned work
    /// runs, as the bulk pipeline does on its two threads.
    func prepare<Request: RequestBody>(_ body: Request) throws -> StoreRouter.PreparedRequest {
        router.prepare(try Self.frame(body))
    }

    func call<Request: RequestBody>(_ body: Request, key: String? = nil) async throws -> Request.Reply {
        try Self.body(of: await send(body, key: key), as: Request.Reply.self)
    }

    func failure<Request: RequestBody>(_ body: Request, key: String? = nil) async throws -> ErrorBody {
        do {
            _ = try await call(body, key: key)
        } catch let error as ErrorBody {
            return error
        }
        Issue.record("expected \(Request.messageType.rawValue) to fail")
        return ErrorBody(code: .internal, message: "did not fail")
    }

    func count(_ table: String) throws -> Int {
        try database.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}
