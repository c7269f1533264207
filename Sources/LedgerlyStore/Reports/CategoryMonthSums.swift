/// The category report's running sums: per category (and ancestor) one base-currency sum per
/// month, and with `byCurrency` one sum per currency, all checked for overflow.
///
/// Why a flat array of slots and not a dictionary of cells: the report adds every row of
/// `category_totals` into each category of its chain, and hashing the category id (and the month
/// text, and the currency text) on every add was most of the report's time at a million
/// transactions (D229). A category gets a slot the first time a row reaches it, so the slots
/// also say which categories the report shows.
struct CategoryMonthSums {
    private let monthCount: Int
    private let columns: [String: Int]
    private let byCurrency: Bool
    private var slots: [Int64: Int] = [:]
    /// The category id of each slot, in the order the slots were made.
    private(set) var ids: [Int64] = []
    /// Slot-major: `base[slot * monthCount + column]`.
    private var base: [Int64] = []
    private var currencySums: [[String: Int64]] = []

    init(months: [String], byCurrency: Bool) {
        monthCount = months.count
        columns = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1, $0) })
        self.byCurrency = byCurrency
    }

    /// The column of a month of the report's range (the rows are read within it).
    func column(of month: String) -> Int {
        columns[month]!
    }

    /// The slot of a category, made (all zero) the first time.
    mutating func slot(of id: Int64) -> Int {
        if let slot = slots[id] { return slot }
        let slot = ids.count
        slots[id] = slot
        ids.append(id)
        base.append(contentsOf: repeatElement(0, count: monthCount))
        if byCurrency { currencySums.append([:]) }
        return slot
    }

    mutating func add(_ minor: Int64, slot: Int, column: Int) throws {
        let index = slot * monthCount + column
        base[index] = try CheckedMinorUnits.add(base[index], minor)
    }

    mutating func add(_ minor: Int64, slot: Int, currency: String) throws {
        currencySums[slot][currency] = try CheckedMinorUnits.add(currencySums[slot][currency] ?? 0, minor)
    }

    /// A slot's base sums, one per month.
    func months(of slot: Int) -> ArraySlice<Int64> {
        base[(slot * monthCount)..<((slot + 1) * monthCount)]
    }

    func currencies(of slot: Int) -> [String: Int64] {
        byCurrency ? currencySums[slot] : [:]
    }
}
