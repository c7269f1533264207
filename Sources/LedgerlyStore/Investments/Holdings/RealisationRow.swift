import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// A row of `realisations`: one lot's part of one sale, derived from the trades by `TradeReplay`
/// and never written by anything else. The one type that names the table's columns, and the one
/// file holding every statement whose rows are realisations (D454, D550), `invest.gains`' page of
/// sales joined with their trades, assets and accounts among them.
///
/// The statements are named SQL with the text they always had: the replay's insert runs on the
/// connection's statement cache once per part in every `invest` write, and the gains' totals and
/// page are read by column position (D142, D455).
struct RealisationRow: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "realisations"

    enum Columns {
        static let tradeId = Column("trade_id")
        static let position = Column("position")
        static let accountId = Column("account_id")
        static let assetId = Column("asset_id")
        static let date = Column("date")
        static let lotId = Column("lot_id")
        static let acquired = Column("acquired")
        static let quantity = Column("quantity")
        static let costMinor = Column("cost_minor")
        static let proceedsMinor = Column("proceeds_minor")
        static let costBaseMinor = Column("cost_base_minor")
        static let proceedsBaseMinor = Column("proceeds_base_minor")
        static let currencyEffectMinor = Column("currency_effect_minor")
        static let baseCurrency = Column("base_currency")
    }

    /// The sale, and this part's place among its parts (from 0).
    var tradeId: Int64
    var position: Int
    var accountId: Int64
    var assetId: Int64
    /// The sale's day.
    var date: String
    /// The lot, what of it was sold and what that realised.
    var figures: Figures
    /// The sale's base currency, kept on each part so a period's totals need no join (D142).
    var baseCurrency: String?

    init(row: Row) throws {
        tradeId = row[Columns.tradeId]
        position = row[Columns.position]
        accountId = row[Columns.accountId]
        assetId = row[Columns.assetId]
        date = row[Columns.date]
        figures = Figures(lotId: row[Columns.lotId], acquired: row[Columns.acquired], quantity: try Quantity(stored: row[Columns.quantity]),
                          cost: row[Columns.costMinor], proceeds: row[Columns.proceedsMinor], costBase: row[Columns.costBaseMinor],
                          proceedsBase: row[Columns.proceedsBaseMinor], currencyEffect: row[Columns.currencyEffectMinor])
        baseCurrency = row[Columns.baseCurrency]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.tradeId] = tradeId
        container[Columns.position] = position
        container[Columns.accountId] = accountId
        container[Columns.assetId] = assetId
        container[Columns.date] = date
        container[Columns.lotId] = figures.lotId
        container[Columns.acquired] = figures.acquired
        container[Columns.quantity] = figures.quantity.description
        container[Columns.costMinor] = figures.cost
        container[Columns.proceedsMinor] = figures.proceeds
        container[Columns.costBaseMinor] = figures.costBase
        container[Columns.proceedsBaseMinor] = figures.proceedsBase
        container[Columns.currencyEffectMinor] = figures.currencyEffect
        container[Columns.baseCurrency] = baseCurrency
    }

    /// One realisation's figures (or their sum over a sale): the one place a realisation becomes a
    /// `RealisedGain`, for `invest.gains` and for a sale's `TradeRecord`.
    struct Figures: Sendable {
        /// What `init(_:)` reads, in this order, first in a query's columns (over `realisations r`).
        static let columns = "r.lot_id, r.acquired, r.quantity, r.cost_minor, r.proceeds_minor, r.cost_base_minor, r.proceeds_base_minor, r.currency_effect_minor"

        var lotId: Int64 = 0
        var acquired = ""
        var quantity = Quantity.zero
        var cost: Int64 = 0
        var proceeds: Int64 = 0
        var costBase: Int64 = 0
        var proceedsBase: Int64 = 0
        var currencyEffect: Int64 = 0

        init() {}

        init(lotId: Int64, acquired: String, quantity: Quantity, cost: Int64, proceeds: Int64, costBase: Int64, proceedsBase: Int64, currencyEffect: Int64) {
            self.lotId = lotId
            self.acquired = acquired
            self.quantity = quantity
            self.cost = cost
            self.proceeds = proceeds
            self.costBase = costBase
            self.proceedsBase = proceedsBase
            self.currencyEffect = currencyEffect
        }

        /// Reads `columns` by position, from the start of `row`.
        init(_ row: Row) throws {
            lotId = row[0]
            acquired = row[1]
            quantity = try Quantity(stored: row[2])
            cost = row[3]
            proceeds = row[4]
            costBase = row[5]
            proceedsBase = row[6]
            currencyEffect = row[7]
        }

        static func sum(_ parts: [Figures]) -> Figures {
            parts.reduce(into: Figures()) { total, part in
                total.quantity = total.quantity + part.quantity
                total.cost += part.cost
                total.proceeds += part.proceeds
                total.costBase += part.costBase
                total.proceedsBase += part.proceedsBase
                total.currencyEffect += part.currencyEffect
            }
        }

        func gain(quoteExponent: Int, baseExponent: Int) -> RealisedGain {
            let quote = { Money.format(minorUnits: $0, exponent: quoteExponent) }
            let base = { Money.format(minorUnits: $0, exponent: baseExponent) }
            let gain = proceedsBase - costBase
            return RealisedGain(quantity: quantity.description, cost: quote(cost), proceeds: quote(proceeds), costBase: base(costBase), proceedsBase: base(proceedsBase),
                                gain: base(gain), priceEffect: base(gain - currencyEffect), currencyEffect: base(currencyEffect))
        }
    }

    // MARK: The replay's statements (`TradeReplay`)

    /// Drops every realisation of an asset, before a replay from its first trade writes them again.
    static func delete(_ db: Database, assetId: Int64) throws {
        try db.execute(sql: "DELETE FROM realisations WHERE asset_id = ?", arguments: [assetId])
    }

    /// Stores the book's realisations of an asset, each with its sale's base currency (D142).
    static func insert(_ db: Database, assetId: Int64, _ realisations: [LotBook.Realisation]) throws {
        for part in realisations {
            try db.execute(cached: """
                INSERT INTO realisations (trade_id, position, account_id, asset_id, date, lot_id, acquired, quantity, cost_minor, proceeds_minor, cost_base_minor, proceeds_base_minor, currency_effect_minor,
                                          base_currency)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT base_currency FROM trades WHERE id = ?))
                """, arguments: [part.tradeId, part.position, part.accountId, assetId, part.date, part.lotId, part.acquired, part.quantity.description,
                                 part.cost, part.proceeds, part.costBase, part.proceedsBase, part.currencyEffect, part.tradeId])
        }
    }

    // MARK: One sale's

    /// Drops a deleted sale's realisations.
    static func delete(_ db: Database, tradeId: Int64) throws {
        try RealisationRow.filter(Columns.tradeId == tradeId).deleteAll(db)
    }

    /// A sale's parts' figures, in order.
    static func figures(_ db: Database, tradeId: Int64) throws -> [Figures] {
        try Row.fetchAll(db, sql: "SELECT \(Figures.columns) FROM realisations r WHERE r.trade_id = ? ORDER BY r.position", arguments: [tradeId]).map(Figures.init)
    }

    /// Each sale's (cost, cost base, proceeds base, currency effect, parts) of an asset, to tell
    /// which a change recomputed.
    static func sumsBySale(_ db: Database, assetId: Int64) throws -> [Int64: [Int64]] {
        var sums: [Int64: [Int64]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT trade_id, sum(cost_minor), sum(cost_base_minor), sum(proceeds_base_minor), sum(currency_effect_minor), count(*)
            FROM realisations WHERE asset_id = ? GROUP BY trade_id
            """, arguments: [assetId]) {
            sums[row[0]] = [row[1], row[2], row[3], row[4], row[5]]
        }
        return sums
    }

    // MARK: A period's (`invest.gains`)

    /// One base currency's sums over a period's realisations.
    struct PeriodTotals {
        var baseCurrency: String
        var proceedsBase: Int64
        var costBase: Int64
        var currencyEffect: Int64
        /// How many sales (each sale's part 0 counts it).
        var sales: Int
    }

    /// The sums per base currency of the realisations matching `conditions` (SQL over
    /// `realisations r`, all of them when empty): one pass over a covering index by date (D142).
    /// Every sale's parts are numbered from 0, so its part 0 counts it (no `count(DISTINCT)` sort).
    static func totals(_ db: Database, conditions: [String], arguments: StatementArguments) throws -> [PeriodTotals] {
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try Row.fetchAll(db, sql: """
            SELECT r.base_currency, sum(r.proceeds_base_minor), sum(r.cost_base_minor), sum(r.currency_effect_minor), sum(r.position = 0)
            FROM realisations r \(filter) GROUP BY r.base_currency
            """, arguments: arguments).map { row in
            PeriodTotals(baseCurrency: row[0], proceedsBase: row[1], costBase: row[2], currencyEffect: row[3], sales: row[4])
        }
    }

    /// The sales (trade id and day) whose realisations match `conditions` (SQL over
    /// `realisations r`), by day then trade id, at most `limit`: a sale's part 0 stands for it
    /// (all its parts have its day), read in order from the index by date (D142).
    static func salesPage(_ db: Database, conditions: [String], arguments: StatementArguments, limit: Int?) throws -> [(tradeId: Int64, date: String)] {
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try Row.fetchAll(db, sql: """
            SELECT r.trade_id, r.date FROM realisations r \(filter.isEmpty ? "WHERE" : filter + " AND") r.position = 0
            ORDER BY r.date, r.trade_id \(limit.map { "LIMIT \($0)" } ?? "")
            """, arguments: arguments).map { ($0[0], $0[1]) }
    }

    /// One sale of a page of `invest.gains`, with every part's figures in order.
    struct Sale {
        var tradeId: Int64
        var accountId: Int64
        var assetId: Int64
        var date: String
        /// The trade's currency and base currency, the asset's symbol and the account's cost-basis
        /// method, as stored.
        var currency: String
        var baseCurrency: String
        var symbol: String
        var method: String
        var parts: [Figures]
    }

    /// Every part of a page's sales with what the page shows of each sale, in one ordered read
    /// (columns by position: this is the hot path of `invest.gains`, D142).
    private static let saleSelect = """
        SELECT \(Figures.columns), r.trade_id, r.account_id, r.asset_id, r.date, t.currency, t.base_currency, a.symbol, ia.cost_basis_method
        FROM realisations r JOIN trades t ON t.id = r.trade_id JOIN assets a ON a.id = r.asset_id JOIN invest_accounts ia ON ia.id = r.account_id
        """

    /// The sales with these trade ids (at most SQLite's limit on a statement's parameters).
    static func saleParts(_ db: Database, tradeIds ids: [Int64]) throws -> [Sale] {
        try sales(Row.fetchAll(db, sql: "\(saleSelect) WHERE r.trade_id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY r.date, r.trade_id, r.position",
                               arguments: StatementArguments(ids)))
    }

    /// The sales matching `conditions` (SQL over `realisations r`) from `first` through `last`
    /// in the page's order (day, trade id).
    static func saleParts(_ db: Database, conditions: [String], arguments: StatementArguments,
                          first: (tradeId: Int64, date: String), last: (tradeId: Int64, date: String)) throws -> [Sale] {
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try sales(Row.fetchAll(db, sql: """
            \(saleSelect) \(filter.isEmpty ? "WHERE" : filter + " AND") (r.date > ? OR (r.date = ? AND r.trade_id >= ?)) AND (r.date < ? OR (r.date = ? AND r.trade_id <= ?))
            ORDER BY r.date, r.trade_id, r.position
            """, arguments: arguments + [first.date, first.date, first.tradeId, last.date, last.date, last.tradeId]))
    }

    /// `saleSelect`'s rows grouped by sale: each sale's columns read once, from its first part.
    private static func sales(_ rows: [Row]) throws -> [Sale] {
        var sales: [Sale] = []
        var index = 0
        while index < rows.count {
            let head = rows[index]
            let tradeId: Int64 = head[8]
            var parts: [Figures] = []
            while index < rows.count, rows[index][8] as Int64 == tradeId {
                parts.append(try Figures(rows[index]))
                index += 1
            }
            sales.append(Sale(tradeId: tradeId, accountId: head[9], assetId: head[10], date: head[11], currency: head[12], baseCurrency: head[13],
                              symbol: head[14], method: head[15], parts: parts))
        }
        return sales
    }
}
