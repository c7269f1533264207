/// One row of an import: a transaction or a transfer (exactly one of them), and where it came from.
public struct TransactionImportItem: Codable, Hashable, Sendable {
    /// The line of the source file: errors and the duplicate report name it.
    public var line: Int?
    /// Identifies the source row for duplicate detection, unique per wallet (a bank row's
    /// fingerprint). An item whose key is already in its wallet is skipped and reported.
    public var importKey: String?
    public var transaction: TransactionCreateRequest?
    public var transfer: TransferCreateRequest?
    /// Restoring an export: the amounts and rates the transaction was recorded with, used
    /// instead of converting again at today's rates.
    public var kept: KeptAmounts?

    public init(line: Int? = nil, importKey: String? = nil, transaction: TransactionCreateRequest? = nil, transfer: TransferCreateRequest? = nil, kept: KeptAmounts? = nil) {
        self.line = line
        self.importKey = importKey
        self.transaction = transaction
        self.transfer = transfer
        self.kept = kept
    }
}

/// What a transaction was recorded with, as `TransactionRecord` has it, so `ledgerly import json`
/// rebuilds exactly the figures an export had.
public struct KeptAmounts: Codable, Hashable, Sendable {
    /// Positive, in the wallet's currency; required when the transaction's currency differs from it.
    /// (Transfers take their legs' amounts from `amount` and `toAmount`.)
    public var walletAmount: String?
    /// Not negative, in the base currency; absent when no rate was known. (Zero is possible: a
    /// tiny amount in a currency worth little rounds to nothing.)
    public var baseAmount: String?
    public var conversion: RateSnapshot?
    public var baseConversion: RateSnapshot?
    /// Transfers: the incoming leg's base amount and conversion (`baseAmount` and
    /// `baseConversion` are the outgoing leg's; they differ when neither wallet is in the base).
    public var incomingBaseAmount: String?
    public var incomingBaseConversion: RateSnapshot?
    /// The transaction's id in the export (a transfer's outgoing leg), kept so that what refers
    /// to it still does; refused when the ledger already has a transaction with that id.
    public var id: Int64?
    /// Transfers: the incoming leg's id in the export.
    public var incomingId: Int64?
    /// The import the transaction came with in the export (none when absent): with `kept`, it
    /// replaces the request's `importId`, so `tx.import.undo` of the old import still works.
    public var importId: String?
    /// When the transaction was recorded and last changed (ISO 8601); default now.
    public var createdAt: String?
    public var updatedAt: String?

    public init(walletAmount: String? = nil, baseAmount: String? = nil, conversion: RateSnapshot? = nil, baseConversion: RateSnapshot? = nil,
                incomingBaseAmount: String? = nil, incomingBaseConversion: RateSnapshot? = nil, id: Int64? = nil, incomingId: Int64? = nil, importId: String? = nil, createdAt: String? = nil, updatedAt: String? = nil) {
        self.importId = importId
        self.id = id
        self.incomingId = incomingId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.walletAmount = walletAmount
        self.baseAmount = baseAmount
        self.conversion = conversion
        self.baseConversion = baseConversion
        self.incomingBaseAmount = incomingBaseAmount
        self.incomingBaseConversion = incomingBaseConversion
    }
}

/// `tx.import`: a batch of transactions and transfers applied in one SQL transaction (all or
/// nothing) and announced by one `tx.imported` event instead of one event per transaction.
public struct TransactionImportRequest: WriteRequest, Hashable {
    public typealias Reply = TransactionImportReply
    public static let messageType: MessageType = "tx.import"
    public static let maximumItems = 20_000
    /// Names the whole import (every batch of one file carries the same id), so
    /// `tx.import.undo` can take it back.
    public var importId: String
    /// 1 to 20,000 items.
    public var items: [TransactionImportItem]
    /// Check everything, count duplicates, then change nothing.
    public var dryRun: Bool?

    public init(importId: String, items: [TransactionImportItem], dryRun: Bool? = nil) {
        self.importId = importId
        self.items = items
        self.dryRun = dryRun
    }
}

/// An item skipped because its `importKey` was already in its wallet.
public struct TransactionImportDuplicate: Codable, Hashable, Sendable {
    public var line: Int?
    public var importKey: String
    /// The transaction that already has the key (nil when it was an earlier item of the same batch
    /// in a dry run).
    public var existingId: Int64?

    public init(line: Int?, importKey: String, existingId: Int64?) {
        self.line = line
        self.importKey = importKey
        self.existingId = existingId
    }
}

public struct TransactionImportReply: Codable, Hashable, Sendable {
    public var importId: String
    /// Transactions recorded (a transfer counts once); in a dry run, would be recorded.
    public var imported: Int
    public var duplicates: [TransactionImportDuplicate]
    /// The ids given to the new transactions, all between these (transfer legs included).
    public var firstId: Int64?
    public var lastId: Int64?
    public var dryRun: Bool

    public init(importId: String, imported: Int, duplicates: [TransactionImportDuplicate], firstId: Int64?, lastId: Int64?, dryRun: Bool) {
        self.importId = importId
        self.imported = imported
        self.duplicates = duplicates
        self.firstId = firstId
        self.lastId = lastId
        self.dryRun = dryRun
    }
}

/// `data` of `tx.imported` and `tx.import.undone`: what a batch touched, so a subscriber can
/// re-evaluate just that (budgets of these categories in these months) or page the
/// transactions with `tx.export` from `firstId`.
public struct TransactionImportSummary: Codable, Hashable, Sendable {
    public var importId: String
    /// Transactions added (or removed by an undo), transfer legs counted one each.
    public var count: Int
    public var firstId: Int64?
    public var lastId: Int64?
    public var walletIds: [Int64]
    /// Categories of the transactions and their split parts (not their parents).
    public var categoryIds: [Int64]
    /// "YYYY-MM", ascending.
    public var months: [String]

    public init(importId: String, count: Int, firstId: Int64?, lastId: Int64?, walletIds: [Int64], categoryIds: [Int64], months: [String]) {
        self.importId = importId
        self.count = count
        self.firstId = firstId
        self.lastId = lastId
        self.walletIds = walletIds
        self.categoryIds = categoryIds
        self.months = months
    }
}

/// `tx.import.undo`: deletes every transaction an import recorded, in one SQL transaction.
public struct TransactionImportUndoRequest: WriteRequest, Hashable {
    public typealias Reply = TransactionImportUndoReply
    public static let messageType: MessageType = "tx.import.undo"
    public var importId: String
    public init(importId: String) { self.importId = importId }
}

public struct TransactionImportUndoReply: Codable, Hashable, Sendable {
    public var importId: String
    /// Transactions deleted (transfer legs counted one each).
    public var deleted: Int
    public init(importId: String, deleted: Int) {
        self.importId = importId
        self.deleted = deleted
    }
}

/// The order `tx.export` pages transactions in.
public enum TransactionExportOrder: String, Codable, CaseIterable, Sendable {
    /// Ascending id: the order they were recorded in (the default).
    case id
    /// Ascending (date, id): what a journal needs to pass `hledger check ordereddates`.
    case date
}

/// `tx.export`: every transaction in id (or date) order, a page at a time. Paging by a key
/// (keyset) keeps each page's cost the same at any depth (an offset would re-read everything
/// before it).
public struct TransactionExportRequest: ReadRequest, Hashable {
    public typealias Reply = TransactionExportReply
    public static let messageType: MessageType = "tx.export"
    /// Transactions after this id (in date order: after (`afterDate`, `afterId`)); nil starts at the first.
    public var afterId: Int64?
    /// 1 to 10,000, default 1,000.
    public var limit: Int?
    /// nil is `.id`.
    public var order: TransactionExportOrder?
    /// In date order, the date of the transaction `afterId` names: both or neither.
    public var afterDate: String?
    /// false: each record without its rate snapshots (`conversion`, `baseConversion`), for a
    /// client that does not show them (a journal, CSV); nil or true: with them.
    public var conversions: Bool?

    public init(afterId: Int64? = nil, limit: Int? = nil, order: TransactionExportOrder? = nil, afterDate: String? = nil, conversions: Bool? = nil) {
        self.afterId = afterId
        self.limit = limit
        self.order = order
        self.afterDate = afterDate
        self.conversions = conversions
    }
}

public struct TransactionExportReply: Codable, Hashable, Sendable {
    public var transactions: [TransactionRecord]
    /// Pass as `afterId` for the next page; nil after the last page.
    public var nextAfterId: Int64?
    /// How many transactions there are in all (on the first page only, for progress).
    public var total: Int?
    /// In date order, pass as `afterDate` with `nextAfterId`; nil in id order and after the last page.
    public var nextAfterDate: String?

    public init(transactions: [TransactionRecord], nextAfterId: Int64?, total: Int?, nextAfterDate: String? = nil) {
        self.transactions = transactions
        self.nextAfterId = nextAfterId
        self.total = total
        self.nextAfterDate = nextAfterDate
    }
}
