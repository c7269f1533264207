import Foundation
import LedgerlyCore
import GRDB
import LedgerlyProtocol
import LedgerlyRuntime
import Logging

/// Routes each request frame to its handler through the store's route table (`StoreRouteTable`,
/// filled by each feature's `…Routes.swift`), and applies the rules every message shares:
/// envelope and version checks, the setup gate, strict body decoding, and for writes the
/// idempotency ledger and change log in one SQL transaction.
///
/// Called on the store's socket thread, one request at a time (or, while a large request is in the
/// bulk pipeline, on its threads in arrival order: D71), so requests are applied in arrival order
/// and no two writes interleave. Synchronous on purpose: SQLite work has nothing to await,
/// and a hop to another thread per request cost more than the request (docs/decisions.md, D25).
final class StoreRouter: Sendable {
    private let environment: StoreRouteEnvironment
    private let routes: RequestRoutes<StoreRouteTable.Route>
    private let logger: Logger

    init(database: StoreDatabase, startedAt: String, clock: ServiceClock = .system, logger: Logger) throws {
        let table = StoreRouteTable.all(startedAt: startedAt)
        guard table.routes.duplicates.isEmpty else { throw StoreRouterError.duplicateRoutes(table.routes.duplicates) }
        self.routes = table.routes
        self.environment = StoreRouteEnvironment(database: database, clock: clock, setupGate: SetupGate(completed: try database.pool.read(SettingsHandlers.isSetupCompleted)))
        self.logger = logger
    }

    /// A request decoded and checked, with the database work still to do.
    typealias PreparedRequest = @Sendable () -> RouterOutcome

    func handle(_ frame: Data) -> RouterOutcome {
        prepare(frame)()
    }

    /// Parses, checks and decodes a request: the part of a request that the store can do for a
    /// large `tx.import` batch while the previous one is being applied. Only a `tx.import` reads
    /// the database here, on a snapshot, to plan its items (`ImportPlan`, D370); nothing writes.
    func prepare(_ frame: Data) -> PreparedRequest {
        do {
            let work = try route(try RequestDecoding.parse(frame))
            return { [self] in
                do {
                    return try work(environment)
                } catch {
                    return self.outcome(of: error, frame)
                }
            }
        } catch {
            let failed = outcome(of: error, frame)
            return { failed }
        }
    }

    private func outcome(of error: any Error, _ frame: Data) -> RouterOutcome {
        switch error {
        case let error as LedgerError:
            if error.kind == .broken {
                logger.error("ledger inconsistent", metadata: ["re": "\(RequestDecoding.bestEffortId(of: frame) ?? "")", "error": "\(error)"])
            }
            return failure(error.errorBody, frame)
        case let error as ErrorBody:
            return failure(error, frame)
        case let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT:
            // Handlers check the constraints they know; reaching this is a gap in those checks.
            logger.error("constraint failed", metadata: ["re": "\(RequestDecoding.bestEffortId(of: frame) ?? "")", "error": "\(error)"])
            return failure(ErrorBody(code: .conflict, message: "the change conflicts with existing data; nothing was changed"), frame)
        default:
            let id = RequestDecoding.bestEffortId(of: frame) ?? ""
            logger.error("request failed", metadata: ["re": "\(id)", "error": "\(error)"])
            return failure(ErrorBody(code: .internal, message: "the store failed to apply the request and changed nothing; its log has the details (request \(id))"), frame)
        }
    }

    private func failure(_ error: ErrorBody, _ frame: Data) -> RouterOutcome {
        RouterOutcome(reply: ReplyBuilder.error(error, re: RequestDecoding.bestEffortId(of: frame)), events: [])
    }

    /// The rules every request shares, in PROTOCOL.md §10's order: a known type and a key on a
    /// write (`RequestRoutes`), the setup gate, then the body, decoded strictly by its route.
    private func route(_ frame: RequestDecoding.ParsedFrame) throws -> StoreRouteTable.Work {
        let route = try routes.route(for: frame.header)
        if !route.request.allowedBeforeSetup && !environment.setupGate.isOpen {
            throw ErrorBody(code: .setupRequired, message: "Ledgerly is not set up yet: run `ledgerly setup` first")
        }
        return try route.handler(frame, environment)
    }

    /// Applies a write exactly once per idempotency key: a key seen before returns the stored
    /// reply and changes nothing; the same key with a different body is a `conflict`.
    /// `changesPlannedReads`: false only for a write that cannot change what an import plan
    /// reads (`WriteGeneration`); every other write advances the count as it commits, on the
    /// writer itself, so no reader can see the change before the count can have moved.
    static func applyOnce<Request: WriteRequest>(
        _ body: Request, bodyHash: String, header: EnvelopeHeader, environment: StoreRouteEnvironment, changesPlannedReads: Bool = true,
        _ handler: @Sendable (Request, inout WriteContext) throws -> Request.Reply
    ) throws -> RouterOutcome {
        let key = header.key ?? ""
        let epoch = environment.database.epoch
        let writes = environment.database.writeGeneration
        let (reply, events) = try environment.database.pool.write { db -> (Data, [EncodedChangeEvent]) in
            if changesPlannedReads { db.afterNextTransaction { _ in writes.advance() } }
            if let earlier = try IdempotencyLedger.lookup(db, key: key) {
                guard earlier.requestType == header.type, try sameBody(earlier.bodyHash, bodyHash, body) else {
                    throw ErrorBody(code: .conflict, message: "the idempotency key \(InputEcho.quoted(key)) was already used for a different request", field: "key")
                }
                return (earlier.reply, [])
            }
            var context = WriteContext(db: db, epoch: epoch, date: environment.clock.now())
            let replyBody = try handler(body, &context)
            let reply = try MessageCoding.encode(replyBody)
            try IdempotencyLedger.remember(db, key: key, requestType: header.type, bodyHash: bodyHash, reply: reply, at: context.now)
            return (reply, context.events)
        }
        return RouterOutcome(reply: ReplyBuilder.ok(rawBody: reply, for: header), events: events)
    }

    /// A stored hash from before `CanonicalHash`'s prefix is compared with the old kind of hash
    /// (only on a retry, so the re-encoding costs nothing otherwise): keys recorded before an
    /// upgrade keep answering their retries (the alerts service re-sends its keys on every start).
    private static func sameBody<Body: Encodable>(_ stored: String, _ hash: String, _ body: Body) throws -> Bool {
        if stored == hash { return true }
        guard !stored.hasPrefix(CanonicalHash.prefix) else { return false }
        return stored == CanonicalHash.legacy(try MessageCoding.encode(body))
    }
}

/// Why the store's router cannot be built.
enum StoreRouterError: Error, CustomStringConvertible {
    case duplicateRoutes([MessageType])

    var description: String {
        switch self {
        case .duplicateRoutes(let types): "the store's route table adds \(types.map(\.rawValue).joined(separator: ", ")) more than once"
        }
    }
}
