import Foundation
import GRDB
import LedgerlyProtocol
import LedgerlyRuntime

/// The reply to one request and the change events its commit produced (to publish after it).
struct RouterOutcome: Sendable {
    let reply: Data
    let events: [ChangeEvent]
}

/// Routes each request frame to its handler by `type`, and applies the rules every message
/// shares: envelope and version checks, the setup gate, strict body decoding, and for writes
/// the idempotency ledger and change log in one SQL transaction.
///
/// Used from the store's single request loop only, so requests are applied one at a time in
/// arrival order.
final class StoreRouter {
    private let database: StoreDatabase
    private let startedAt: String
    private var setupCompleted: Bool

    init(database: StoreDatabase, startedAt: String) throws {
        self.database = database
        self.startedAt = startedAt
        self.setupCompleted = try database.pool.read(SettingsHandlers.isSetupCompleted)
    }

    func handle(_ frame: Data) async -> RouterOutcome {
        do {
            return try await route(try RequestDecoding.header(of: frame), frame)
        } catch let error as ErrorBody {
            return failure(error, frame)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return failure(ErrorBody(code: .conflict, message: "the change conflicts with existing data: \(error.message ?? "constraint failed")"), frame)
        } catch {
            return failure(ErrorBody(code: .internal, message: "the store failed to apply the request; nothing was changed (\(error))"), frame)
        }
    }

    private func failure(_ error: ErrorBody, _ frame: Data) -> RouterOutcome {
        RouterOutcome(reply: ReplyBuilder.error(error, re: RequestDecoding.bestEffortId(of: frame)), events: [])
    }

    private func route(_ header: EnvelopeHeader, _ frame: Data) async throws -> RouterOutcome {
        guard let type = MessageType(rawValue: header.type) else {
            throw ErrorBody(code: .unknownType, message: "unknown message type '\(header.type)'", field: "type")
        }
        if type.isWrite && (header.key ?? "").isEmpty {
            throw ErrorBody.validation("\(type.rawValue) is a write and needs an idempotency key in 'key'", field: "key")
        }
        if !type.allowedBeforeSetup && !setupCompleted {
            throw ErrorBody(code: .setupRequired, message: "Ledgerly is not set up yet: run `ledgerly setup` first")
        }
        let epoch = database.epoch
        let startedAt = startedAt
        switch type {
        case .status:
            return try await read(StatusRequest.self, frame, header) { _, db in
                StatusReply(service: "ledgerly-store", version: LedgerlyVersion.current, pid: getpid(), startedAt: startedAt,
                            lastSeq: try EventHandlers.lastSeq(db), epoch: epoch, setupCompleted: try SettingsHandlers.isSetupCompleted(db))
            }
        case .settingsGet: return try await read(SettingsGetRequest.self, frame, header, SettingsHandlers.get)
        case .settingsUpdate: return try await write(SettingsUpdateRequest.self, frame, header, SettingsHandlers.update)
        case .setupSave: return try await write(SetupSaveRequest.self, frame, header, SettingsHandlers.save)
        case .setupComplete:
            let outcome = try await write(SetupCompleteRequest.self, frame, header, SettingsHandlers.complete)
            setupCompleted = true
            return outcome
        case .walletCreate: return try await write(WalletCreateRequest.self, frame, header, WalletHandlers.create)
        case .walletList: return try await read(WalletListRequest.self, frame, header, WalletHandlers.list)
        case .walletGet: return try await read(WalletGetRequest.self, frame, header, WalletHandlers.get)
        case .walletUpdate: return try await write(WalletUpdateRequest.self, frame, header, WalletHandlers.update)
        case .walletArchive: return try await write(WalletArchiveRequest.self, frame, header, WalletHandlers.archive)
        case .categoryCreate: return try await write(CategoryCreateRequest.self, frame, header, CategoryHandlers.create)
        case .categoryList: return try await read(CategoryListRequest.self, frame, header, CategoryHandlers.list)
        case .categoryUpdate: return try await write(CategoryUpdateRequest.self, frame, header, CategoryHandlers.update)
        case .tagCreate: return try await write(TagCreateRequest.self, frame, header, TagHandlers.create)
        case .tagList: return try await read(TagListRequest.self, frame, header, TagHandlers.list)
        case .txCreate: return try await write(TransactionCreateRequest.self, frame, header, TransactionHandlers.create)
        case .txGet: return try await read(TransactionGetRequest.self, frame, header, TransactionHandlers.get)
        case .txList: return try await read(TransactionListRequest.self, frame, header, TransactionHandlers.list)
        case .txUpdate: return try await write(TransactionUpdateRequest.self, frame, header, TransactionHandlers.update)
        case .txDelete: return try await write(TransactionDeleteRequest.self, frame, header, TransactionHandlers.delete)
        case .txTransfer: return try await write(TransferCreateRequest.self, frame, header, TransactionHandlers.transfer)
        case .eventsSince:
            return try await read(EventsSinceRequest.self, frame, header) { request, db in try EventHandlers.since(request, db, epoch: epoch) }
        }
    }

    private func read<Request: RequestBody>(
        _ type: Request.Type, _ frame: Data, _ header: EnvelopeHeader,
        _ handler: @escaping @Sendable (Request, Database) throws -> Request.Reply
    ) async throws -> RouterOutcome {
        let request = try RequestDecoding.request(Request.self, from: frame)
        let reply = try await database.pool.read { db in try handler(request.body, db) }
        return RouterOutcome(reply: ReplyBuilder.ok(reply, for: header), events: [])
    }

    /// Applies a write exactly once per idempotency key: a key seen before returns the stored
    /// reply and changes nothing; the same key with a different body is a `conflict`.
    private func write<Request: RequestBody>(
        _ type: Request.Type, _ frame: Data, _ header: EnvelopeHeader,
        _ handler: @escaping @Sendable (Request, inout WriteContext) throws -> Request.Reply
    ) async throws -> RouterOutcome {
        let request = try RequestDecoding.request(Request.self, from: frame)
        let key = header.key ?? ""
        let bodyHash = IdempotencyLedger.hash(try MessageCoding.encode(request.body))
        let epoch = database.epoch
        let (reply, events) = try await database.pool.write { db -> (Data, [ChangeEvent]) in
            if let earlier = try IdempotencyLedger.lookup(db, key: key) {
                guard earlier.requestType == header.type, earlier.bodyHash == bodyHash else {
                    throw ErrorBody(code: .conflict, message: "the idempotency key '\(key)' was already used for a different request", field: "key")
                }
                return (earlier.reply, [])
            }
            var context = WriteContext(db: db, epoch: epoch)
            let body = try handler(request.body, &context)
            let reply = try MessageCoding.encode(body)
            try IdempotencyLedger.remember(db, key: key, requestType: header.type, bodyHash: bodyHash, reply: reply, at: context.now)
            return (reply, context.events)
        }
        return RouterOutcome(reply: ReplyBuilder.ok(rawBody: reply, for: header), events: events)
    }
}
