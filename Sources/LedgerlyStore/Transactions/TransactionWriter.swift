import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Records new transactions and transfers for one write: `tx.create`, `tx.transfer`, or a whole
/// `tx.import` batch of thousands.
///
/// Why a writer: what each new transaction needs (its wallet, that its categories exist, its
/// tags' ids, the day's rates and their stored JSON) is the same for most of a batch, so it is
/// read once; the wallet balances and the report totals are summed as transactions are recorded
/// and written once in `finish()`, which must run before the SQL transaction commits.
/// It lives for one SQL transaction and never outlives what it read.
final class TransactionWriter {
    let db: Database
    /// Checks and conversions, for what the caller did not plan before the write.
    let planner: TransactionPlanner
    var rates: ConversionCache { planner.rates }
    private var tagIds: [String: Int64] = [:]
    private var balanceChanges: [Int64: Int64] = [:]
    /// Restored times as sent → as stored (`Recording`).
    private var timestamps: [String: String] = [:]
    private var totals = LedgerTotals()
    /// The rate snapshots' rows, referred to by id (D372).
    private let snapshots: ConversionSnapshotIds
    /// The `transactions` insert, kept for the whole write (`BoundStatement.rebound()`).
    private var transactionInsert: BoundStatement?
    /// Every id recorded (transfer legs one each), and what they touched, for an import's event.
    private(set) var ids: [Int64] = []
    private(set) var walletIds = Set<Int64>()
    private(set) var categoryIds = Set<Int64>()
    private(set) var months = Set<String>()
    /// The month last put in `months`.
    private var lastMonth = ""

    init(db: Database) {
        self.db = db
        planner = TransactionPlanner(db: db)
        snapshots = ConversionSnapshotIds(db: db)
    }

    /// Validates and records one transaction. `kept`: restoring an export, the amounts and rates
    /// it had instead of converting again.
    /// `trade`: the investment trade whose cash this is; `asTransfer` keeps a buy's or sale's
    /// cash out of income and spending (money between the user's own accounts).
    /// `liability`: the liability this pays (also kept out of spending: the debt falls by as much).
    /// `planned`: the request's checks and conversion, worked out before the write on a snapshot
    /// the caller knows to be current (`ImportPlan`); else `planner` works them out now.
    /// `totalled`: the plan's report totals are already in this write's (`addPlannedTotals`).
    func insert(_ request: TransactionCreateRequest, _ context: inout WriteContext, importKey: String? = nil, importId: String? = nil, kept: KeptAmounts? = nil,
                trade: (id: Int64, asTransfer: Bool)? = nil, liability: Int64? = nil, planned: PlannedTransaction? = nil, totalled: Bool = false) throws -> Int64 {
        let plan = try planned ?? planner.plan(request, kept: kept, now: context.date)
        let tags = try tagIds(request.tags ?? [], field: .body("tags"), &context)
        let planned = try plan.conversion.get()
        let recording = try Recording(kept, importId: importId, now: context.now, timestamps: &timestamps)
        let transfer = trade?.asTransfer == true || liability != nil
        let entry = Self.totalsEntry(request, plan, planned.converted, transfer: transfer)

        let keptId = try kept?.id.map { try InputRules.positiveId($0, field: .root("kept").member("id")) }
        let conversionId = try snapshots.id(of: planned.conversionJSON)
        let baseConversionId = try snapshots.id(of: planned.baseConversionJSON)
        try refusingTaken(keptId, field: .root("kept").member("id")) {
            var insert = try transactionInsert?.rebound() ?? BoundStatement(db, cached: TransactionRow.insertSQL)
            insert.bind(keptId, at: 1)
            insert.bind(request.kind.rawValue, at: 2)
            insert.bind(plan.wallet.id, at: 3)
            insert.bind(plan.amount.minorUnits, at: 4)
            insert.bind(plan.currency.code, at: 5)
            insert.bind(entry.walletEffect, at: 6)
            insert.bind(entry.baseMinor, at: 7)
            insert.bind(conversionId, at: 8)
            insert.bind(baseConversionId, at: 9)
            insert.bind(request.categoryId, at: 10)
            insert.bind(plan.notes, at: 11)
            insert.bind(plan.day, at: 12)
            insert.bind(plan.attachment, at: 13)
            insert.bind(importKey, at: 14)
            insert.bind(recording.importId, at: 15)
            insert.bind(recording.createdAt, at: 16)
            insert.bind(recording.updatedAt, at: 17)
            insert.bind(trade?.id, at: 18)
            insert.bind(transfer, at: 19)
            insert.bind(liability, at: 20)
            transactionInsert = insert
            try insert.execute()
        }
        let id = db.lastInsertedRowID
        try TransactionRow.insertTags(db, txId: id, tagIds: tags)
        try TransactionRow.insertSplits(db, txId: id, date: plan.day, splits: plan.splits)
        try recorded(id, entry, totalled: totalled)
        return id
    }

    /// What a transaction recorded from `plan` with `converted` changes: its wallet's balance
    /// (`walletEffect`), its base amount, and the report totals it is added to. One function for
    /// the write and for the plan that adds up its batch's totals beforehand (`ImportPlan`).
    static func totalsEntry(_ request: TransactionCreateRequest, _ plan: PlannedTransaction, _ converted: TransactionConversion, transfer: Bool) -> LedgerTotals.Entry {
        LedgerTotals.Entry(
            date: plan.day, walletId: plan.wallet.id, categoryId: request.categoryId, kind: request.kind, transfer: transfer, currency: plan.currency.code,
            amountMinor: plan.amount.minorUnits, walletEffect: request.kind.sign * converted.walletMoney.minorUnits,
            baseMinor: converted.baseMinorUnits.map { request.kind.sign * $0 }, splits: plan.splits.map { ($0.0.minorUnits, $0.1.categoryId) }, notes: plan.notes)
    }

    /// The same for each leg of a transfer ([outgoing, incoming]).
    static func totalsEntries(_ plan: PlannedTransfer, _ conversions: [PlannedConversion]) -> [LedgerTotals.Entry] {
        zip([(plan.source, plan.outgoing, TransactionKind.expense), (plan.destination, plan.incoming, .income)], conversions).map { leg, converted in
            let (wallet, money, kind) = leg
            return LedgerTotals.Entry(
                date: plan.day, walletId: wallet.id, categoryId: nil, kind: kind, transfer: true, currency: money.currency.code,
                amountMinor: money.minorUnits, walletEffect: kind.sign * money.minorUnits,
                baseMinor: converted.converted.baseMinorUnits.map { kind.sign * $0 }, splits: [], notes: plan.notes)
        }
    }

    /// Runs the insert of a transaction with a restored id (`id` nil: SQLite picks the next) and
    /// refuses the id when it is taken. The primary key finds that in the insert itself, which
    /// costs nothing more, where a look-up first was one more query per restored transaction.
    /// `field` is only built for the refusal: a load records a million transactions and refuses none.
    private func refusingTaken(_ id: Int64?, field: @autoclosure () -> FieldPath, _ insert: () throws -> Void) throws {
        do {
            try insert()
        } catch let error as DatabaseError where id != nil && error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw LedgerError.conflict("transaction \(id ?? 0) already exists: a restore keeps the export's ids, so it goes into a new, empty ledger", field: field())
        }
    }

    /// The import and times a new transaction is recorded with: the write's, or, restoring an
    /// export (`kept`), the ones it had (an item's own import id, none when it had none).
    private struct Recording {
        let importId: String?
        let createdAt: String
        let updatedAt: String

        /// `timestamps`: kept times already read, as stored (a restored batch's transactions
        /// share a handful: every transaction of one import was recorded at one moment).
        init(_ kept: KeptAmounts?, importId: String?, now: String, timestamps: inout [String: String]) throws {
            self.importId = kept.map(\.importId) ?? importId
            func read(_ text: String?, _ member: String) throws -> String {
                guard let text else { return now }
                if let known = timestamps[text] { return known }
                let stored = try InputRules.timestamp(text, field: .root("kept").member(member))
                timestamps[text] = stored
                return stored
            }
            createdAt = try kept.map { try read($0.createdAt, "createdAt") } ?? now
            updatedAt = try kept.map { try read($0.updatedAt, "updatedAt") } ?? now
        }
    }

    /// Validates and records both legs of a transfer; returns [outgoing, incoming]. `planned` and
    /// `totalled`: as for `insert`.
    func insertTransfer(_ request: TransferCreateRequest, _ context: inout WriteContext, importKey: String? = nil, importId: String? = nil, kept: KeptAmounts? = nil,
                        planned: PlannedTransfer? = nil, totalled: Bool = false) throws -> [Int64] {
        let plan = try planned ?? planner.plan(request, kept: kept, now: context.date)
        let tags = try tagIds(request.tags ?? [], field: .body("tags"), &context)
        let conversions = try plan.conversions.get()
        // Each leg's wallet, amount, kind and effects, as its totals take them.
        let entries = Self.totalsEntries(plan, conversions)
        let recording = try Recording(kept, importId: importId, now: context.now, timestamps: &timestamps)
        var legIds: [Int64] = []
        for (index, (entry, converted)) in zip(entries, conversions).enumerated() {
            let outgoing = index == 0
            let idField = { FieldPath.root("kept").member(outgoing ? "id" : "incomingId") }
            let keptId = try (outgoing ? kept?.id : kept?.incomingId).map { try InputRules.positiveId($0, field: idField()) }
            let baseConversionId = try snapshots.id(of: converted.baseConversionJSON)
            try refusingTaken(keptId, field: idField()) {
                var insert = try BoundStatement(db, cached: TransactionRow.insertTransferLegSQL)
                insert.bind(keptId, at: 1)
                insert.bind(entry.kind.rawValue, at: 2)
                insert.bind(entry.walletId, at: 3)
                insert.bind(entry.amountMinor, at: 4)
                insert.bind(entry.currency, at: 5)
                insert.bind(entry.walletEffect, at: 6)
                insert.bind(entry.baseMinor, at: 7)
                insert.bind(baseConversionId, at: 8)
                insert.bind(entry.notes, at: 9)
                insert.bind(entry.date, at: 10)
                insert.bind(entries[1 - index].walletId, at: 11)
                insert.bind(outgoing ? importKey : nil, at: 12)
                insert.bind(recording.importId, at: 13)
                insert.bind(recording.createdAt, at: 14)
                insert.bind(recording.updatedAt, at: 15)
                try insert.execute()
            }
            let id = db.lastInsertedRowID
            legIds.append(id)
            try TransactionRow.insertTags(db, txId: id, tagIds: tags)
            try recorded(id, entry, totalled: totalled)
        }
        try TransactionRow.linkLegs(db, outgoing: legIds[0], incoming: legIds[1])
        return legIds
    }

    /// Writes the summed balance changes and report totals. Call once, before the commit.
    func finish() throws {
        for (walletId, delta) in balanceChanges.sorted(by: { $0.key < $1.key }) {
            try WalletRow.adjustBalance(db, walletId: walletId, by: delta)
        }
        balanceChanges = [:]
        try totals.flush(db)
    }

    // MARK: Remembered reads

    /// Adds a batch's report totals that its plan added up beforehand (`ImportPlan.totals`), for
    /// the items then recorded with `totalled` true. Call before any of them is recorded.
    func addPlannedTotals(_ planned: LedgerTotals) throws {
        try totals.add(planned)
    }

    /// `totalled`: the entry's report totals are already in (`addPlannedTotals`).
    private func recorded(_ id: Int64, _ entry: LedgerTotals.Entry, totalled: Bool) throws {
        let (sum, overflow) = balanceChanges[entry.walletId, default: 0].addingReportingOverflow(entry.walletEffect)
        guard !overflow else {
            throw LedgerError.invalid("this would take the wallet's balance beyond what Ledgerly can store", field: .body("amount"))
        }
        balanceChanges[entry.walletId] = sum
        ids.append(id)
        walletIds.insert(entry.walletId)
        // A batch comes mostly in date order: the set is only touched when the month changes.
        let month = LedgerMonth.of(entry.date)
        if month != lastMonth {
            months.insert(month)
            lastMonth = month
        }
        if let category = entry.categoryId { categoryIds.insert(category) }
        categoryIds.formUnion(entry.splits.map(\.categoryId))
        if !totalled { try totals.add(entry) }
    }

    /// `field` is built only when the names are resolved (most transactions have no tags).
    private func tagIds(_ names: [String], field: @autoclosure () -> FieldPath, _ context: inout WriteContext) throws -> [Int64] {
        guard !names.isEmpty else { return [] }
        // Remembered by lowercased ASCII name only: that is how SQLite's NOCASE compares names.
        func key(_ name: String) -> String? {
            let trimmed = name.trimmingWhitespace()
            return trimmed.utf8.allSatisfy({ $0 < 0x80 }) ? trimmed.lowercased() : nil
        }
        if names.count == 1, let name = key(names[0]), let known = tagIds[name] { return [known] }
        let ids = try TagHandlers.resolve(names, field: field(), &context)
        if names.count == ids.count { for (name, id) in zip(names, ids) { if let name = key(name) { tagIds[name] = id } } }
        return ids
    }
}
