import Foundation
import LedgerlyCore
import GRDB
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import Synchronization

/// Routes each request frame to its handler by `type`, and applies the rules every message
/// shares: envelope and version checks, the setup gate, strict body decoding, and for writes
/// the idempotency ledger and change log in one SQL transaction.
///
/// Called on the store's socket thread, one request at a time (or, while a large request is in the
/// bulk pipeline, on its threads in arrival order: D71), so requests are applied in arrival order
/// and no two writes interleave. Synchronous on purpose: SQLite work has nothing to await,
/// and a hop to another thread per request cost more than the request (docs/decisions.md, D25).
final class StoreRouter: Sendable {
    private let database: StoreDatabase
    private let startedAt: String
    private let logger: Logger
    private let setupCompleted: Mutex<Bool>
    private let clock: ServiceClock

    init(database: StoreDatabase, startedAt: String, clock: ServiceClock = .system, logger: Logger) throws {
        self.database = database
        self.startedAt = startedAt
        self.clock = clock
        self.logger = logger
        self.setupCompleted = Mutex(try database.pool.read(SettingsHandlers.isSetupCompleted))
    }

    /// A request decoded and checked, with the database work still to do.
    typealias PreparedRequest = @Sendable () -> RouterOutcome

    func handle(_ frame: Data) -> RouterOutcome {
        prepare(frame)()
    }

    /// Parses, checks and decodes a request (no database access): the part of a request that
    /// the store can do for a large `tx.import` batch while the previous one is being applied.
    func prepare(_ frame: Data) -> PreparedRequest {
        do {
            let work = try route(try RequestDecoding.parse(frame))
            return { [self] in
                do {
                    return try work()
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

    /// Decodes the body for its handler and returns the handler's work, to run next.
    private func route(_ frame: RequestDecoding.ParsedFrame) throws -> Work {
        let header = frame.header
        guard let type = MessageType(rawValue: header.type) else {
            throw ErrorBody(code: .unknownType, message: "unknown message type \(InputEcho.quoted(header.type))", field: "type")
        }
        if type.isWrite && (header.key ?? "").isEmpty {
            throw ErrorBody.validation("\(type.rawValue) is a write and needs an idempotency key in 'key'", field: "key")
        }
        if !type.allowedBeforeSetup && !setupCompleted.withLock({ $0 }) {
            throw ErrorBody(code: .setupRequired, message: "Ledgerly is not set up yet: run `ledgerly setup` first")
        }
        let epoch = database.epoch
        let startedAt = startedAt
        switch type {
        case .status:
            return try read(StatusRequest.self, frame, header) { _, db in
                StatusReply(service: "ledgerly-store", version: LedgerlyVersion.current, pid: getpid(), startedAt: startedAt,
                            lastSeq: try EventHandlers.lastSeq(db), epoch: epoch, setupCompleted: try SettingsHandlers.isSetupCompleted(db))
            }
        case .settingsGet: return try read(SettingsGetRequest.self, frame, header, SettingsHandlers.get)
        case .settingsUpdate: return try write(SettingsUpdateRequest.self, frame, header, SettingsHandlers.update)
        case .setupSave: return try write(SetupSaveRequest.self, frame, header, SettingsHandlers.save)
        case .setupComplete:
            let work = try write(SetupCompleteRequest.self, frame, header, SettingsHandlers.complete)
            return { [self] in
                let outcome = try work()
                self.setupCompleted.withLock { $0 = true }
                return outcome
            }
        case .walletCreate: return try write(WalletCreateRequest.self, frame, header, WalletHandlers.create)
        case .walletList: return try read(WalletListRequest.self, frame, header, WalletHandlers.list)
        case .walletGet: return try read(WalletGetRequest.self, frame, header, WalletHandlers.get)
        case .walletUpdate: return try write(WalletUpdateRequest.self, frame, header, WalletHandlers.update)
        case .walletArchive: return try write(WalletArchiveRequest.self, frame, header, WalletHandlers.archive)
        case .categoryCreate: return try write(CategoryCreateRequest.self, frame, header, CategoryHandlers.create)
        case .categoryList: return try read(CategoryListRequest.self, frame, header, CategoryHandlers.list)
        case .categoryUpdate: return try write(CategoryUpdateRequest.self, frame, header, CategoryHandlers.update)
        case .tagCreate: return try write(TagCreateRequest.self, frame, header, TagHandlers.create)
        case .tagList: return try read(TagListRequest.self, frame, header, TagHandlers.list)
        case .txCreate: return try write(TransactionCreateRequest.self, frame, header, TransactionHandlers.create)
        case .txGet: return try read(TransactionGetRequest.self, frame, header, TransactionHandlers.get)
        case .txList: return try read(TransactionListRequest.self, frame, header, TransactionHandlers.list)
        case .txUpdate: return try write(TransactionUpdateRequest.self, frame, header, TransactionHandlers.update)
        case .txDelete: return try write(TransactionDeleteRequest.self, frame, header, TransactionHandlers.delete)
        case .txTransfer: return try write(TransferCreateRequest.self, frame, header, TransactionHandlers.transfer)
        case .txImport: return try write(TransactionImportRequest.self, frame, header, ImportHandlers.importBatch)
        case .txImportUndo: return try write(TransactionImportUndoRequest.self, frame, header, ImportHandlers.undo)
        case .txExport: return try read(TransactionExportRequest.self, frame, header, ImportHandlers.export)
        case .ledgerRestoreBegin: return try write(LedgerRestoreBeginRequest.self, frame, header, RestoreHandlers.begin)
        case .ledgerRestoreFinish: return try write(LedgerRestoreFinishRequest.self, frame, header, RestoreHandlers.finish)
        case .reportBalance: return try read(BalanceReportRequest.self, frame, header) { [clock] request, db in try BalanceReporter.report(request, db, now: clock.now()) }
        case .reportCategories: return try read(CategoryReportRequest.self, frame, header, CategoryReporter.report)
        case .reportCashflow: return try read(CashFlowReportRequest.self, frame, header, CategoryReporter.cashFlow)
        case .reportPayees: return try read(PayeeReportRequest.self, frame, header, PayeeReporter.report)
        case .ratesProfileList: return try read(RateProfileListRequest.self, frame, header, RateHandlers.listProfiles)
        case .ratesProfileCreate: return try write(RateProfileCreateRequest.self, frame, header, RateHandlers.createProfile)
        case .ratesProfileUse: return try write(RateProfileUseRequest.self, frame, header, RateHandlers.useProfile)
        case .ratesSet: return try write(RateSetRequest.self, frame, header, RateHandlers.set)
        case .ratesList: return try read(RateListRequest.self, frame, header) { [clock] request, db in try RateHandlers.list(request, db, now: clock.now()) }
        case .ratesHistory: return try read(RateHistoryRequest.self, frame, header) { [clock] request, db in try RateHandlers.history(request, db, now: clock.now()) }
        case .ratesBatch: return try write(RateBatchRequest.self, frame, header, RateHandlers.batch)
        case .ratesExport: return try read(RateExportRequest.self, frame, header, RateHistoryHandlers.export)
        case .ratesRestore: return try write(RateRestoreRequest.self, frame, header, RateHistoryHandlers.restore)
        case .ratesOverrideEnd: return try write(RateOverrideEndRequest.self, frame, header, RateHandlers.endOverride)
        case .ratesProviderReport: return try write(RateProviderReportRequest.self, frame, header, RateProviderHandlers.report)
        case .ratesProviderList: return try read(RateProviderListRequest.self, frame, header, RateProviderHandlers.list)
        case .ratesProviderForget: return try write(RateProviderForgetRequest.self, frame, header, RateProviderHandlers.forget)
        case .convert: return try write(ConvertRequest.self, frame, header, ConversionHandlers.convert)
        case .ratesWaiting: return try read(RatesWaitingRequest.self, frame, header, RateHandlers.waiting)
        case .ledgerBackup:
            let request = try RequestDecoding.decode(LedgerBackupRequest.self, from: frame).request
            return { [database] in
                RouterOutcome(reply: ReplyBuilder.ok(try BackupHandlers.backup(request.body, database.pool), for: header), events: [])
            }
        case .convertHistory: return try read(ConversionHistoryRequest.self, frame, header, ConversionHandlers.history)
        case .budgetSet: return try write(BudgetSetRequest.self, frame, header, BudgetHandlers.set)
        case .budgetList: return try read(BudgetListRequest.self, frame, header) { [clock] request, db in try BudgetHandlers.list(request, db, now: clock.now()) }
        case .budgetDelete: return try write(BudgetDeleteRequest.self, frame, header, BudgetHandlers.delete)
        case .budgetStatus: return try read(BudgetStatusRequest.self, frame, header) { [clock] request, db in try BudgetEvaluator.status(request, db, now: clock.now()) }
        case .goalCreate: return try write(GoalCreateRequest.self, frame, header, GoalHandlers.create)
        case .goalList: return try read(GoalListRequest.self, frame, header) { [clock] request, db in try GoalHandlers.list(request, db, today: Timestamp.today(at: clock.now())) }
        case .goalGet: return try read(GoalGetRequest.self, frame, header) { [clock] request, db in try GoalHandlers.fetch(db, id: request.id, field: "body.id", today: Timestamp.today(at: clock.now())) }
        case .goalFund: return try write(GoalFundRequest.self, frame, header, GoalHandlers.fund)
        case .goalAutoFund: return try write(GoalAutoFundRequest.self, frame, header, GoalHandlers.autoFund)
        case .goalContributions: return try read(GoalContributionsRequest.self, frame, header, GoalHandlers.contributions)
        case .recurringCreate: return try write(RecurringCreateRequest.self, frame, header, RecurringHandlers.create)
        case .recurringList: return try read(RecurringListRequest.self, frame, header, RecurringHandlers.list)
        case .recurringPause: return try write(RecurringPauseRequest.self, frame, header, RecurringHandlers.pause)
        case .recurringDelete: return try write(RecurringDeleteRequest.self, frame, header, RecurringHandlers.delete)
        case .recurringPost: return try write(RecurringPostRequest.self, frame, header, RecurringHandlers.post)
        case .alertRaise: return try write(AlertRaiseRequest.self, frame, header, AlertHandlers.raise)
        case .alertList: return try read(AlertListRequest.self, frame, header, AlertHandlers.list)
        case .ratesRefresh:
            throw ErrorBody(code: .unknownType, message: "rates.refresh is answered by ledgerly-rates on its own socket (rates.cmd), not by the store", field: "type")
        case .eventsSince:
            return try read(EventsSinceRequest.self, frame, header) { request, db in try EventHandlers.since(request, db, epoch: epoch) }
        }
    }

    typealias Work = @Sendable () throws -> RouterOutcome

    private func read<Request: RequestBody>(
        _ type: Request.Type, _ frame: RequestDecoding.ParsedFrame, _ header: EnvelopeHeader,
        _ handler: @escaping @Sendable (Request, Database) throws -> Request.Reply
    ) throws -> Work {
        let request = try RequestDecoding.decode(Request.self, from: frame).request
        return { [database] in
            let reply = try database.pool.read { db in try handler(request.body, db) }
            return RouterOutcome(reply: ReplyBuilder.ok(reply, for: header), events: [])
        }
    }

    /// Applies a write exactly once per idempotency key: a key seen before returns the stored
    /// reply and changes nothing; the same key with a different body is a `conflict`.
    /// A stored hash from before `CanonicalHash`'s prefix is compared with the old kind of hash
    /// (only on a retry, so the re-encoding costs nothing otherwise): keys recorded before an
    /// upgrade keep answering their retries (the alerts service re-sends its keys on every start).
    private static func sameBody<Body: Encodable>(_ stored: String, _ hash: String, _ body: Body) throws -> Bool {
        if stored == hash { return true }
        guard !stored.hasPrefix(CanonicalHash.prefix) else { return false }
        return stored == CanonicalHash.legacy(try MessageCoding.encode(body))
    }

    private func write<Request: RequestBody>(
        _ type: Request.Type, _ frame: RequestDecoding.ParsedFrame, _ header: EnvelopeHeader,
        _ handler: @escaping @Sendable (Request, inout WriteContext) throws -> Request.Reply
    ) throws -> Work {
        let (request, bodyHash) = try RequestDecoding.decode(Request.self, from: frame)
        let key = header.key ?? ""
        return { [database, clock] in
            let epoch = database.epoch
            let (reply, events) = try database.pool.write { db -> (Data, [EncodedChangeEvent]) in
                if let earlier = try IdempotencyLedger.lookup(db, key: key) {
                    guard earlier.requestType == header.type, try Self.sameBody(earlier.bodyHash, bodyHash, request.body) else {
                        throw ErrorBody(code: .conflict, message: "the idempotency key \(InputEcho.quoted(key)) was already used for a different request", field: "key")
                    }
                    return (earlier.reply, [])
                }
                var context = WriteContext(db: db, epoch: epoch, date: clock.now())
                let body = try handler(request.body, &context)
                let reply = try MessageCoding.encode(body)
                try IdempotencyLedger.remember(db, key: key, requestType: header.type, bodyHash: bodyHash, reply: reply, at: context.now)
                return (reply, context.events)
            }
            return RouterOutcome(reply: ReplyBuilder.ok(rawBody: reply, for: header), events: events)
        }
    }
}
