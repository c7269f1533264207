import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `networth.restore`: an export's manual assets, liabilities and monthly snapshots back under
/// their ids, exactly as exported (PROTOCOL.md §18, step 6).
///
/// Written through the tables' row types with what the export says (ids, times, the snapshots'
/// figures and breakdowns as they were taken), where the handlers compute. Valuations and
/// entries are checked as the handlers check them (currencies, amounts not below zero, dates,
/// balances never below zero in the order the live history keeps: day, time recorded, id), so a
/// damaged file is refused, not stored.
enum NetWorthRestoreHandler {
    static func restore(_ request: NetWorthRestoreRequest, _ context: inout WriteContext) throws -> NetWorthRestoreReply {
        let db = context.db
        // A snapshot taken since `ledger.restore.begin` is of a half-restored ledger (the alerts
        // service takes missing months as soon as there is history): it is dropped, and the
        // export's snapshots or, for months it lacks, the alerts service's next look at the
        // complete ledger take its place (D219).
        if let began = try ChangeLogRow.lastTime(of: .ledgerRestored, db) {
            try NetWorthSnapshotRow.deleteTaken(since: began, db)
        }
        guard try ManualAssetRow.all().isEmpty(db), try LiabilityRow.all().isEmpty(db), try NetWorthSnapshotRow.all().isEmpty(db) else {
            throw LedgerError.conflict("the ledger already has manual assets, liabilities or net-worth snapshots: restore into a new ledger", field: .wholeBody)
        }
        let data = request.netWorth
        let field = FieldPath.body("netWorth")
        for (index, asset) in data.assets.enumerated() { try restore(asset, db, field: field.member("assets")[index]) }
        for (index, liability) in data.liabilities.enumerated() { try restore(liability, db, field: field.member("liabilities")[index]) }
        var months = Set<String>()
        for (index, snapshot) in data.snapshots.enumerated() {
            let at = field.member("snapshots")[index]
            guard months.insert(snapshot.month).inserted else { throw LedgerError.invalid("\(at.member("month")) repeats \(snapshot.month)", field: at.member("month")) }
            try restore(snapshot, db, field: at)
        }
        return NetWorthRestoreReply(assets: data.assets.count, liabilities: data.liabilities.count, snapshots: data.snapshots.count)
    }

    private static func restore(_ asset: ManualAssetRecord, _ db: Database, field: FieldPath) throws {
        let currency = try InputRules.currency(asset.currency, field: field.member("currency"))
        var row = ManualAssetRow(
            id: try InputRules.positiveId(asset.id, field: field.member("id")), name: try InputRules.name(asset.name, field: field.member("name")),
            assetType: asset.assetType.rawValue, currency: currency.code, volatile: asset.volatile, includeInCore: asset.includeInCore,
            includeInTangible: asset.includeInTangible, notes: try InputRules.optionalText(asset.notes, field: field.member("notes")), archived: asset.archived,
            createdAt: try InputRules.timestamp(asset.createdAt, field: field.member("createdAt")),
            updatedAt: try InputRules.timestamp(asset.updatedAt, field: field.member("updatedAt")))
        try row.insert(db)
        for (index, valuation) in (asset.valuations ?? []).enumerated() {
            let at = field.member("valuations")[index]
            var stored = AssetValuationRow(
                id: try InputRules.positiveId(valuation.id, field: at.member("id")), assetId: asset.id, date: try InputRules.date(valuation.date, field: at.member("date")).description,
                valueMinor: try notNegative(valuation.value, currency, field: at.member("value")), notes: try InputRules.optionalText(valuation.notes, field: at.member("notes")),
                createdAt: try InputRules.timestamp(valuation.createdAt, field: at.member("createdAt")))
            try stored.insert(db)
        }
    }

    private static func restore(_ liability: LiabilityRecord, _ db: Database, field: FieldPath) throws {
        let currency = try InputRules.currency(liability.currency, field: field.member("currency"))
        var row = LiabilityRow(
            id: try InputRules.positiveId(liability.id, field: field.member("id")), name: try InputRules.name(liability.name, field: field.member("name")),
            liabilityType: liability.liabilityType.rawValue, currency: currency.code,
            interestRate: try InputRules.optionalText(liability.interestRate, field: field.member("interestRate"), limit: 100),
            dueDate: try liability.dueDate.map { try InputRules.date($0, field: field.member("dueDate")).description },
            notes: try InputRules.optionalText(liability.notes, field: field.member("notes")), archived: liability.archived,
            createdAt: try InputRules.timestamp(liability.createdAt, field: field.member("createdAt")),
            updatedAt: try InputRules.timestamp(liability.updatedAt, field: field.member("updatedAt")))
        try row.insert(db)
        var fields: [Int64: FieldPath] = [:]
        for (index, entry) in (liability.history ?? []).enumerated() {
            let at = field.member("history")[index]
            let date = try InputRules.date(entry.date, field: at.member("date")).description
            let minor = try notNegative(entry.amount, currency, field: at.member("amount"))
            var walletId: Int64?, transactionId: Int64?
            if entry.kind == .payment {
                guard let wallet = entry.walletId, let transaction = entry.transactionId else {
                    throw LedgerError.invalid("\(at) is a payment without its walletId and transactionId", field: at)
                }
                try link(payment: transaction, wallet: wallet, liability: liability.id, db, field: at.member("transactionId"))
                walletId = wallet
                transactionId = transaction
            }
            var stored = LiabilityEntryRow(
                id: try InputRules.positiveId(entry.id, field: at.member("id")), liabilityId: liability.id, date: date, kind: entry.kind.rawValue, amountMinor: minor,
                walletId: walletId, transactionId: transactionId, notes: try InputRules.optionalText(entry.notes, field: at.member("notes")),
                createdAt: try InputRules.timestamp(entry.createdAt, field: at.member("createdAt")))
            try stored.insert(db)
            fields[entry.id] = at
        }
        // The history must hold as the handlers keep it: read back in the owner's order (day, then
        // time recorded, then id: `LiabilityEntryRow.history`), no balance below zero (D551).
        if let entry = try LiabilityHistory.read(db, liabilityId: liability.id).firstOverdrawn {
            let at = fields[entry.id] ?? field.member("history")
            throw LedgerError.invalid("\(at.member("amount")) leaves liability \(liability.id)'s balance below zero on \(entry.date)", field: at.member("amount"))
        }
    }

    /// The payment's transaction, restored under its id by `tx.import`, belongs to the liability
    /// again and leaves spending as it did (`trade_transfer`, which the totals read as a
    /// transfer): taken out of the kept totals, changed, and put back, as `invest.restore` does
    /// for trades' cash.
    private static func link(payment transaction: Int64, wallet: Int64, liability: Int64, _ db: Database, field: FieldPath) throws {
        guard let links = try TransactionRow.links(db, id: transaction) else {
            throw LedgerError.invalid("\(field) names transaction \(transaction), which is not in the ledger: restore the export's transactions first", field: field)
        }
        guard links.walletId == wallet, links.kind == TransactionKind.expense.rawValue, links.tradeId == nil, links.liabilityId == nil else {
            throw LedgerError.invalid("\(field) names transaction \(transaction), which is not an expense of wallet \(wallet) free to be a payment", field: field)
        }
        try LedgerTotals.apply(db, ids: [transaction], sign: -1)
        try TransactionRow.makePayment(db, id: transaction, liabilityId: liability)
        try LedgerTotals.apply(db, ids: [transaction], sign: 1)
    }

    /// Writes a snapshot as recorded elsewhere (an export, another device), checked field by
    /// field; `replacing` one of the same month (sync's last writer) or not.
    static func restore(_ snapshot: NetWorthSnapshotRecord, replacing: Bool = false, _ db: Database, field: FieldPath) throws {
        guard snapshot.month.count == 7, LedgerDate(snapshot.month + "-01") != nil else {
            throw LedgerError.invalid("\(field.member("month")) must be a month as YYYY-MM, got \(InputEcho.quoted(snapshot.month))", field: field.member("month"))
        }
        let base = try InputRules.currency(snapshot.baseCurrency, field: field.member("baseCurrency"))
        let figures = snapshot.figures
        let minor = { (text: String, name: String) throws -> Int64 in
            try InputRules.amount(text, currency: base, field: field.member("figures").member(name)).minorUnits
        }
        let row = NetWorthSnapshotRow(
            month: snapshot.month, date: try InputRules.date(snapshot.date, field: field.member("date")).description, baseCurrency: base.code,
            totalAssetsMinor: try minor(figures.totalAssets, "totalAssets"), totalLiabilitiesMinor: try minor(figures.totalLiabilities, "totalLiabilities"),
            netWorthMinor: try minor(figures.netWorth, "netWorth"), coreMinor: try minor(figures.core, "core"), tangibleMinor: try minor(figures.tangible, "tangible"),
            volatileMinor: try minor(figures.volatile, "volatile"), complete: snapshot.complete,
            warnings: String(decoding: try MessageCoding.encode(snapshot.warnings), as: UTF8.self),
            items: String(decoding: try MessageCoding.encode(snapshot.items ?? []), as: UTF8.self),
            takenAt: try InputRules.timestamp(snapshot.takenAt, field: field.member("takenAt")))
        try row.insert(db, onConflict: replacing ? .replace : nil)
    }

    /// An exported value or amount, zero or more, in minor units of its currency.
    private static func notNegative(_ text: String, _ currency: Currency, field: FieldPath) throws -> Int64 {
        let money = try InputRules.amount(text, currency: currency, field: field)
        guard money.minorUnits >= 0 else { throw LedgerError.invalid("\(field) must not be negative, got \(InputEcho.escaped(text))", field: field) }
        return money.minorUnits
    }
}
