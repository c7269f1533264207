import LedgerlyCore

/// One posting line: an account, a signed amount, optionally its total cost, its own date and a
/// comment.
///
/// Why the cost is a total (`@@`) and never a unit price (`@`): Ledgerly keeps each converted
/// amount rounded to its currency's minor unit. A unit price would have to be that rounded amount
/// divided by the original one, which is rarely a short decimal; hledger and ledger would multiply
/// it back and get a slightly different cost, so the entry would not balance and `bal -B` would
/// not equal Ledgerly's base totals. `@@ 84.31 EUR` states the stored amount exactly.
struct JournalPosting: Sendable {
    var account: String
    var amount: JournalAmount
    /// What the amount cost in the balancing commodity; its sign follows `amount`'s.
    var cost: JournalAmount?
    /// The day this posting happened when it is not the entry's (a transfer leg that left a day
    /// before the money arrived).
    var date: String?
    var comment: String?
    /// Units written as given instead of `amount`'s number: an investment's quantity, with up to
    /// 18 decimals, more than `JournalAmount` holds. Such a posting always has a `cost`, which is
    /// what it weighs; `amount` then only gives the commodity and the sign (±1).
    var quantity: String?

    init(_ account: String, _ amount: JournalAmount, cost: JournalAmount? = nil, comment: String? = nil) {
        self.account = account
        self.amount = amount
        self.cost = cost
        self.comment = comment
    }

    /// A posting of `quantity` units of `commodity` (signed text, "-2.5") that cost `cost`.
    init(_ account: String, units quantity: String, of commodity: String, cost: JournalAmount) {
        self.init(account, JournalAmount(minorUnits: quantity.hasPrefix("-") ? -1 : 1, exponent: 0, commodity: commodity), cost: cost)
        self.quantity = quantity
    }

    /// The number as written: the quantity, or the amount's decimal.
    var numberText: String { quantity ?? Money.format(minorUnits: amount.minorUnits, exponent: amount.exponent) }

    /// Amounts start at this column when the account name is short enough, for a readable file
    /// (counted in terminal columns, so `日本食` lines up as hledger and editors show it).
    static let amountColumn = 44

    /// Appends the posting's line in hledger/ledger syntax (with its newline) to `text`; its
    /// own date is a comment `[2024-03-05]`, which both tools read as the posting's date.
    func writeLedger(to text: inout String) {
        text += "    "
        text += account
        text += Self.padding(after: account)
        if quantity == nil {
            text += amount.journalText
        } else {
            text += numberText
            text += " "
            text += JournalAmount.commoditySymbol(amount.commodity)
        }
        if let cost {
            text += " @@ "
            text += cost.unsignedJournalText
        }
        // Most postings have neither: no arrays made for them.
        guard date != nil || comment != nil else {
            text += "\n"
            return
        }
        let comments = [date.map { "[\($0)]" }, comment].compactMap { $0 }.filter { !$0.isEmpty }
        if !comments.isEmpty {
            text += "  ; "
            text += comments.joined(separator: " ")
        }
        text += "\n"
    }

    /// The spaces after a four-space indent and `account` up to `amountColumn`, at least two.
    static func padding(after account: String) -> String {
        spaces[max(2, min(amountColumn - 4 - DisplayWidth.of(account), spaces.count - 1))]
    }

    /// Runs of 0…40 spaces, made once: padding is needed on every line.
    private static let spaces: [String] = (0...amountColumn - 4).map { String(repeating: " ", count: $0) }

    /// What the posting weighs when the entry is balanced: its cost, signed like its amount, or
    /// the amount itself when it has no cost.
    var weight: (commodity: String, exponent: Int, minorUnits: Int64) {
        guard let cost else { return (amount.commodity, amount.exponent, amount.minorUnits) }
        let magnitude = cost.minorUnits < 0 ? -cost.minorUnits : cost.minorUnits
        return (cost.commodity, cost.exponent, amount.minorUnits < 0 ? -magnitude : magnitude)
    }

    /// Postings to `account` that make `postings` add up to zero in every commodity at cost.
    ///
    /// Why: hledger and ledger refuse the whole file over one unbalanced entry. With the store's
    /// records the sum is always zero and nothing is added; when records disagree (legs of a
    /// transfer converted at different moments, split parts that do not add up) the difference is
    /// shown on its own account instead of making the export unreadable.
    static func balancing(_ postings: [JournalPosting], account: String) -> [JournalPosting] {
        // An entry has a handful of postings in one or two commodities: a list searched in
        // order (the order commodities first appear in) costs less than hashing each code.
        var sums: [(commodity: String, exponent: Int, total: Int128)] = []
        for posting in postings {
            let weight = posting.weight
            guard let index = sums.firstIndex(where: { $0.commodity == weight.commodity }) else {
                sums.append((weight.commodity, weight.exponent, Int128(weight.minorUnits)))
                continue
            }
            let exponent = max(sums[index].exponent, weight.exponent)
            sums[index].total = rescale(sums[index].total, from: sums[index].exponent, to: exponent) + rescale(Int128(weight.minorUnits), from: weight.exponent, to: exponent)
            sums[index].exponent = exponent
        }
        return sums.compactMap { sum in
            guard sum.total != 0, let units = Int64(exactly: -sum.total) else { return nil }
            return JournalPosting(account, JournalAmount(minorUnits: units, exponent: sum.exponent, commodity: sum.commodity))
        }
    }

    private static func rescale(_ value: Int128, from: Int, to: Int) -> Int128 {
        var value = value
        for _ in 0..<max(0, to - from) { value *= 10 }
        return value
    }
}
