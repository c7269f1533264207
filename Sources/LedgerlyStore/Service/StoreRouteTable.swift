import Foundation
import GRDB
import LedgerlyProtocol
import LedgerlyRuntime

/// The store's request routes: each feature adds its message types here (a `…Routes.swift` file
/// in its folder), through `read` or `write`, which only accept the matching kind of request type,
/// so a write filed as a read (which would skip the idempotency ledger and the change log) does
/// not compile.
struct StoreRouteTable {
    /// A request's decoded body bound to the database work that answers it, to run next (the
    /// store decodes a large import while the previous one is applied: D71).
    typealias Work = @Sendable (StoreRouteEnvironment) throws -> RouterOutcome
    /// Decodes a request frame for its handler (and plans it, for `tx.import`: `ImportPlan`).
    typealias Route = @Sendable (RequestDecoding.ParsedFrame, StoreRouteEnvironment) throws -> Work

    private(set) var routes = RequestRoutes<Route>(service: LedgerlyService.store.name)

    /// Every route the store answers.
    static func all(startedAt: String) -> StoreRouteTable {
        var table = StoreRouteTable()
        table.addServiceRoutes(startedAt: startedAt)
        table.addSettingsRoutes()
        table.addWalletRoutes()
        table.addCategoryRoutes()
        table.addTagRoutes()
        table.addTransactionRoutes()
        table.addImportRoutes()
        table.addReportRoutes()
        table.addRateRoutes()
        table.addConversionRoutes()
        table.addBudgetRoutes()
        table.addGoalRoutes()
        table.addRecurringRoutes()
        table.addAlertRoutes()
        table.addChangeLogRoutes()
        table.addBackupRoutes()
        table.addInvestmentRoutes()
        table.addNetWorthRoutes()
        table.addSyncRoutes()
        return table
    }

    /// A read in one read transaction, with the service clock and the epoch.
    mutating func read<Request: ReadRequest>(_ type: Request.Type, _ handler: @escaping @Sendable (Request, ReadContext) throws -> Request.Reply) {
        routes.add(type) { frame, _ in
            let request = try RequestDecoding.decode(Request.self, from: frame).request
            let header = frame.header
            return { environment in
                let reply = try environment.database.pool.read { db in
                    try handler(request.body, ReadContext(db: db, date: environment.clock.now(), epoch: environment.database.epoch))
                }
                return RouterOutcome(reply: ReplyBuilder.ok(reply, for: header), events: [])
            }
        }
    }

    /// A read that needs only the database.
    mutating func read<Request: ReadRequest>(_ type: Request.Type, _ handler: @escaping @Sendable (Request, Database) throws -> Request.Reply) {
        read(type) { request, context in try handler(request, context.db) }
    }

    /// A read whose handler writes the reply body itself, byte for byte what `MessageCoding`
    /// would write for `Request.Reply` (`tx.export`: Foundation's encoder was a large part of an
    /// export, D260).
    mutating func readEncoded<Request: ReadRequest>(_ type: Request.Type, _ handler: @escaping @Sendable (Request, Database) throws -> [UInt8]) {
        routes.add(type) { frame, _ in
            let request = try RequestDecoding.decode(Request.self, from: frame).request
            let header = frame.header
            return { environment in
                let body = try environment.database.pool.read { db in try handler(request.body, db) }
                return RouterOutcome(reply: ReplyBuilder.ok(rawBody: body, for: header), events: [])
            }
        }
    }

    /// A read that works on the database pool itself, outside any transaction (`ledger.backup`
    /// runs SQLite's online backup, which takes its own).
    mutating func readPool<Request: ReadRequest>(_ type: Request.Type, _ handler: @escaping @Sendable (Request, DatabasePool) throws -> Request.Reply) {
        routes.add(type) { frame, _ in
            let request = try RequestDecoding.decode(Request.self, from: frame).request
            let header = frame.header
            return { environment in
                RouterOutcome(reply: ReplyBuilder.ok(try handler(request.body, environment.database.pool), for: header), events: [])
            }
        }
    }

    /// A write, applied exactly once per idempotency key in one SQL transaction with its change
    /// events and the key's reply (`StoreRouter.applyOnce`). `after` runs once it has committed.
    mutating func write<Request: WriteRequest>(
        _ type: Request.Type, _ handler: @escaping @Sendable (Request, inout WriteContext) throws -> Request.Reply,
        after: (@Sendable (StoreRouteEnvironment) -> Void)? = nil
    ) {
        routes.add(type) { frame, _ in
            let (request, bodyHash) = try RequestDecoding.decode(Request.self, from: frame)
            let header = frame.header
            return { environment in
                let outcome = try StoreRouter.applyOnce(request.body, bodyHash: bodyHash, header: header, environment: environment, handler)
                after?(environment)
                return outcome
            }
        }
    }

    /// A write planned when it is decoded, before the requests ahead of it are applied (on the
    /// bulk pipeline's decoding thread), then applied as `write` does. `planning` reads a
    /// snapshot and the handler checks that the plan is still current (`ImportPlan`, D370).
    /// The write itself must not change what plans read (it does not advance `WriteGeneration`).
    mutating func write<Request: WriteRequest, Plan: Sendable>(
        _ type: Request.Type, planning: @escaping @Sendable (Request, StoreRouteEnvironment) -> Plan,
        _ handler: @escaping @Sendable (Request, Plan, inout WriteContext) throws -> Request.Reply
    ) {
        routes.add(type) { frame, environment in
            let (request, bodyHash) = try RequestDecoding.decode(Request.self, from: frame)
            let header = frame.header
            let plan = planning(request.body, environment)
            return { environment in
                try StoreRouter.applyOnce(request.body, bodyHash: bodyHash, header: header, environment: environment, changesPlannedReads: false) { body, context in
                    try handler(body, plan, &context)
                }
            }
        }
    }

    /// A request type another service answers: the store's error says which.
    mutating func answeredElsewhere(_ type: any RequestBody.Type, answeredBy: String) {
        routes.answeredElsewhere(type, answeredBy: answeredBy)
    }
}

/// What a route's work runs against.
struct StoreRouteEnvironment: Sendable {
    let database: StoreDatabase
    let clock: ServiceClock
    let setupGate: SetupGate
}
