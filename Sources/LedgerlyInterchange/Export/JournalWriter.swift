import LedgerlyCore
import LedgerlyProtocol

/// Writes Ledgerly's transactions as a plain-text journal that hledger (1.25+) and ledger (3.3)
/// read, or as a beancount file (`JournalDialect`), one entry at a time.
///
/// Why streaming: an export may cover a million transactions, so the caller feeds records in
/// (in any order, typically by id) and writes each returned string out at once; the writer keeps
/// only the wallets, the categories and transfer legs still waiting for their other half.
///
/// Why the amounts are built this way: `hledger bal -B` must give, per category, exactly the base
/// totals Ledgerly reports. So every category posting carries its base share as a total price
/// (`@@`, never a unit price, which would not multiply back to the stored rounded amount; see
/// `JournalPosting`), split parts get the store's own largest-remainder shares (`ProportionalShares`), and
/// every entry balances at cost exactly (see the rules on `entry(for:)`).
///
/// Typical use:
/// ```
/// var writer = JournalWriter(baseCurrency: "EUR", wallets: wallets, categories: categories)
/// out.write(writer.header())
/// out.write(writer.openingBalances(date: "2024-01-01"))
/// for transaction in transactions { out.write(writer.entry(for: transaction)) }
/// out.write(writer.finish())
/// ```
public struct JournalWriter: Sendable {
    /// The base currency used when a record does not name its own `baseCurrency`.
    public let baseCurrency: String?
    /// The syntax written: hledger's (the default) or beancount's, with the same entries.
    public let dialect: JournalDialect
    /// Beancount's names for the accounts and commodities met so far (beancount only).
    private var beancountNames = BeancountNames()
    private let wallets: [Int64: WalletRecord]
    private let walletOrder: [WalletRecord]
    private let accounts: JournalAccounts
    /// Commodities and accounts already declared (by `header()` or inline before an entry), so a
    /// first use of anything else gets its directive and the file passes `hledger --strict`.
    private var declaredCommodities: Set<String>
    /// The base and wallet currencies, which `header()` declares.
    private let headerCommodities: [String]
    private var declaredAccounts: Set<String>
    /// The header's commodities that are currency codes, looked up once: most amounts are in one
    /// of them, found by comparing a few short codes instead of hashing each.
    private let knownCurrencies: [Currency]
    /// Tags declared so far (`tag` directives), so the file also passes `ledger --pedantic`.
    private var declaredTags: Set<String> = Set(JournalWriter.ledgerlyTags)
    /// Transactions another part of the journal stands for (investment trades' cash, written with
    /// their trade by `InvestmentJournal`): not written again.
    public var replacedTransactionIds: Set<Int64> = []
    /// Liability payments by transaction id (`NetWorthJournal.payments`): each is written as the
    /// payment it is, the liability's account against the wallet, instead of an expense.
    public var payments: [Int64: LiabilityPayment] = [:]
    /// Transfer legs whose counterpart has not come yet, by their own id.
    private var pendingLegs: [Int64: TransactionRecord] = [:]
    /// Transactions written as a comment instead of an entry because their record could not be
    /// read (unknown wallet, malformed amount or date); the comment says why.
    public private(set) var skippedTransactionIds: [Int64] = []

    public init(baseCurrency: String?, wallets: [WalletRecord], categories: [CategoryRecord], dialect: JournalDialect = .ledger) {
        self.baseCurrency = baseCurrency?.uppercased()
        self.dialect = dialect
        var byId: [Int64: WalletRecord] = [:]
        for wallet in wallets where byId[wallet.id] == nil { byId[wallet.id] = wallet }
        self.wallets = byId
        self.walletOrder = byId.values.sorted { $0.id < $1.id }
        self.accounts = JournalAccounts(wallets: wallets, categories: categories)
        self.headerCommodities = Set(([self.baseCurrency].compactMap { $0 } + wallets.map { $0.currency.uppercased() })).sorted()
        self.declaredCommodities = Set(headerCommodities)
        self.knownCurrencies = headerCommodities.compactMap { code in (try? Currency(code: code)).flatMap { $0.code == code ? $0 : nil } }
        self.declaredAccounts = Set(accounts.declarationOrder + JournalAccounts.reserved)
    }

    /// Transfer legs still waiting for their counterpart (`finish()` writes them on their own).
    public var pendingTransferLegs: Int { pendingLegs.count }

    // MARK: Accounts

    /// `assets:<wallet name>` (sanitised, made unique); `assets:wallet <id>` for a wallet not given.
    public func walletAccount(_ walletId: Int64) -> String {
        accounts.wallets[walletId] ?? "assets:wallet \(walletId)"
    }

    /// `expenses:<Parent>:<Child>` or `income:<Parent>:<Child>` by the category's kind; without a
    /// category, `expenses:uncategorized` or `income:uncategorized` by the transaction's kind.
    public func categoryAccount(_ categoryId: Int64?, kind: TransactionKind) -> String {
        guard let categoryId else {
            return kind == .income ? JournalAccounts.uncategorizedIncome : JournalAccounts.uncategorizedExpense
        }
        return accounts.categories[categoryId] ?? "\(kind == .income ? "income" : "expenses"):category \(categoryId)"
    }

    /// `commodity` and `account` directives for those of `commodities` and `accounts` not
    /// declared yet (another part of the journal, written after the transactions, uses them), so
    /// the file still passes `hledger --strict`; they count as declared from now on.
    public mutating func declare(commodities: [String], accounts: [String]) -> String {
        var text = ""
        for commodity in commodities.map({ $0.uppercased() }) where !commodity.isEmpty && !declaredCommodities.contains(commodity) {
            declaredCommodities.insert(commodity)
            text += commodityDirective(commodity)
        }
        for account in accounts where !declaredAccounts.contains(account) {
            declaredAccounts.insert(account)
            text += accountDirective(account)
        }
        return text
    }

    /// `commodity EUR`, or beancount's dated `commodity` (with the code Ledgerly has when the
    /// name had to change).
    private mutating func commodityDirective(_ code: String) -> String {
        switch dialect {
        case .ledger:
            return "commodity \(JournalAmount.commoditySymbol(code))\n"
        case .beancount:
            let name = beancountNames.commodity(code)
            let original = name == code ? "" : "  ledgerly-code: \(BeancountSyntax.string(code))\n"
            return "\(BeancountSyntax.openDate) commodity \(name)\n" + original
        }
    }

    /// `account assets:Checking`, or beancount's `open` (with the journal's name when it had to change).
    private mutating func accountDirective(_ account: String) -> String {
        switch dialect {
        case .ledger:
            return "account \(account)\n"
        case .beancount:
            return "\(BeancountSyntax.openDate) open \(beancountNames.account(account))\n"
        }
    }

    /// The tags Ledgerly's own comments use (`ledgerly-id:12`), declared by `header()`.
    static let ledgerlyTags = [
        "ledgerly-id", "ledgerly-counterpart-id", "ledgerly-wallet-id", "ledgerly-liability-entry", "ledgerly-trade",
        "ledgerly-asset", "ledgerly-valuation", "ledgerly-liability",
    ]

    // MARK: Header and opening balances

    /// Comment lines, then `commodity` directives for the base and wallet currencies and `account`
    /// directives for every wallet, category and account the writer itself uses. Declaring them
    /// lets `hledger --strict` check the file and keeps account order and types predictable.
    public mutating func header() -> String {
        var text = ""
        switch dialect {
        case .ledger:
            text += "; Ledgerly journal export\n"
            if let baseCurrency {
                text += "; Base currency \(baseCurrency): a price after @@ is the base amount Ledgerly stored,\n"
                text += "; so `hledger bal -B` shows Ledgerly's base totals.\n"
            }
        case .beancount:
            text += "; Ledgerly beancount export\n"
            text += "option \"title\" \"Ledgerly\"\n"
            if let baseCurrency {
                text += "; Base currency \(baseCurrency): a price after @@ is the base amount Ledgerly stored,\n"
                text += "; so each posting's weight (bean-query: weight) is Ledgerly's base amount.\n"
                text += "option \"operating_currency\" \(BeancountSyntax.string(beancountNames.commodity(baseCurrency)))\n"
            }
        }
        text += "\n"
        for commodity in headerCommodities where !commodity.isEmpty {
            text += commodityDirective(commodity)
        }
        text += "\n"
        for account in accounts.declarationOrder + JournalAccounts.reserved {
            text += accountDirective(account)
        }
        text += "\n"
        if dialect == .ledger {
            for tag in Self.ledgerlyTags { text += "tag \(tag)\n" }
            text += "\n"
        }
        return text
    }

    /// One entry per wallet whose starting balance is not zero, against `equity:opening balances`,
    /// dated `date` ("YYYY-MM-DD", normally on or before the first transaction), so that wallet
    /// balances in the journal equal Ledgerly's.
    public mutating func openingBalances(date: String) -> String {
        guard LedgerDate(date) != nil else {
            return "; ledgerly: opening balances left out: '\(JournalSyntax.commentText(date))' is not a YYYY-MM-DD date\n\n"
        }
        var text = ""
        for wallet in walletOrder {
            let amount: JournalAmount
            do {
                amount = try JournalAmount(parsing: wallet.startingBalance, commodity: wallet.currency)
            } catch {
                text += "; ledgerly: opening balance of wallet \(wallet.id) left out: \(error.description)\n\n"
                continue
            }
            guard amount.minorUnits != 0 else { continue }
            let entry = JournalEntry(
                date: date, code: nil, description: "Opening balance: " + JournalSyntax.accountPart(wallet.name),
                metadata: [("ledgerly-wallet-id", String(wallet.id))],
                postings: [
                    JournalPosting(walletAccount(wallet.id), amount),
                    JournalPosting(JournalAccounts.openingBalances, amount.signed(-1)),
                ])
            text += self.text(of: entry)
        }
        return text
    }

    // MARK: Transactions

    /// The entry for one transaction, or "" for a transfer leg whose counterpart has not come yet
    /// (the entry comes with the second leg, in whatever order and however far apart they come).
    ///
    /// Transaction in wallet W (currency wc) of kind k, amount a in currency c, wallet amount wa,
    /// base amount b in base B (may be unknown):
    /// - an expense posts its category parts positive and the wallet negative, income the other way
    ///   round (income in an expense category is a refund: negative on the expense account);
    /// - wallet posting `±wa wc`, with `@@ b B` when b is known and wc ≠ B;
    /// - one category posting per split part (a whole transaction is one part of amount a). With b
    ///   known each part's base share is `ProportionalShares.allocate(b, parts, total: a)`: c ≠ B
    ///   posts `part c @@ share B`; c = B with wc ≠ B posts the part's share of wa instead,
    ///   `@@ share B`, commented with the part (Ledgerly's base amount is the wallet amount
    ///   converted, which can differ from a by rounding, and the entry must balance at cost);
    ///   c = wc = B posts the part as is. With b unknown: `part c @@ shareOfWa wc` when c ≠ wc.
    public mutating func entry(for transaction: TransactionRecord) -> String {
        if replacedTransactionIds.contains(transaction.id) { return "" }
        guard let link = transaction.transfer else {
            return render(transaction.id) { writer throws(Skip) in try writer.regularEntry(transaction) }
        }
        guard let other = pendingLegs.removeValue(forKey: link.counterpartyTransactionId) else {
            pendingLegs[transaction.id] = transaction
            return ""
        }
        let (outgoing, incoming) = Self.orderLegs(other, transaction)
        return render(outgoing.id) { writer throws(Skip) in try writer.transferEntry(outgoing: outgoing, incoming: incoming) }
    }

    /// Writes the transfer legs whose counterpart never came (an export limited to some dates or
    /// wallets), each against `equity:unmatched transfers` so its wallet's balance is still right.
    /// Call once after the last transaction.
    public mutating func finish() -> String {
        let legs = pendingLegs.values.sorted { $0.id < $1.id }
        pendingLegs = [:]
        var text = ""
        for leg in legs {
            text += render(leg.id) { writer throws(Skip) in try writer.unmatchedLegEntry(leg) }
        }
        return text
    }

    // MARK: Building entries

    /// Why a record was written as a comment instead of an entry.
    struct Skip: Error {
        let reason: String
    }

    private func regularEntry(_ transaction: TransactionRecord) throws(Skip) -> JournalEntry {
        let wallet = try wallet(transaction.walletId)
        try requireDate(transaction.date)
        let amount = try parse(transaction.amount, transaction.currency, "amount")
        let walletAmount = try parse(transaction.walletAmount, wallet.currency, "walletAmount")
        let base = try baseAmount(of: transaction)
        let categorySign: Int64 = transaction.kind == .expense ? 1 : -1

        if let payment = payments[transaction.id] { return try paymentEntry(transaction, payment, wallet: wallet, walletAmount: walletAmount, base: base) }
        var parts: [(amount: JournalAmount, account: String)] = []
        if transaction.splits.isEmpty {
            parts = [(amount, categoryAccount(transaction.categoryId, kind: transaction.kind))]
        } else {
            for part in transaction.splits {
                parts.append((try parse(part.amount, transaction.currency, "split amount"), categoryAccount(part.categoryId, kind: transaction.kind)))
            }
        }
        let partUnits = parts.map(\.amount.minorUnits)
        func shares(of total: JournalAmount) -> [JournalAmount] {
            ProportionalShares.allocate(total.minorUnits, parts: partUnits, total: amount.minorUnits).map { total.with(minorUnits: $0) }
        }

        var postings: [JournalPosting] = []
        if let base {
            let baseShares = shares(of: base)
            if amount.commodity != base.commodity {
                for (index, part) in parts.enumerated() {
                    postings.append(JournalPosting(part.account, part.amount.signed(categorySign), cost: baseShares[index]))
                }
            } else if walletAmount.commodity != base.commodity {
                let walletShares = shares(of: walletAmount)
                for (index, part) in parts.enumerated() {
                    postings.append(JournalPosting(part.account, walletShares[index].signed(categorySign), cost: baseShares[index], comment: part.amount.journalText))
                }
            } else {
                for part in parts { postings.append(JournalPosting(part.account, part.amount.signed(categorySign))) }
            }
        } else if amount.commodity != walletAmount.commodity {
            let walletShares = shares(of: walletAmount)
            for (index, part) in parts.enumerated() {
                postings.append(JournalPosting(part.account, part.amount.signed(categorySign), cost: walletShares[index]))
            }
        } else {
            for part in parts { postings.append(JournalPosting(part.account, part.amount.signed(categorySign))) }
        }
        let walletCost = base.flatMap { $0.commodity != walletAmount.commodity ? $0 : nil }
        postings.append(JournalPosting(walletAccount(wallet.id), walletAmount.signed(-categorySign), cost: walletCost))

        return JournalEntry(
            date: transaction.date, code: String(transaction.id), description: JournalSyntax.description(transaction.notes),
            notes: transaction.notes, describedByNotes: true, metadata: [("ledgerly-id", String(transaction.id))], tags: transaction.tags,
            postings: postings)
    }

    /// A liability payment: the amount paid, in the liability's currency, onto its account, and
    /// what left the wallet. The liability's posting is at cost in the base when the base amount
    /// is known and it is in another currency (as a category posting would be), else at cost in
    /// the wallet's currency when that differs; what a rounding leaves goes to
    /// `equity:conversion differences` (`render`).
    private func paymentEntry(_ transaction: TransactionRecord, _ payment: LiabilityPayment, wallet: WalletRecord, walletAmount: JournalAmount,
                              base: JournalAmount?) throws(Skip) -> JournalEntry {
        let paid = try parse(payment.amount, payment.currency, "liability payment")
        var cost: JournalAmount?
        if let base, paid.commodity != base.commodity {
            cost = base
        } else if base == nil, paid.commodity != walletAmount.commodity {
            cost = walletAmount
        }
        let walletCost = base.flatMap { $0.commodity != walletAmount.commodity ? $0 : nil }
        return JournalEntry(
            date: transaction.date, code: String(transaction.id), description: JournalSyntax.description(transaction.notes),
            notes: transaction.notes, describedByNotes: true,
            metadata: [("ledgerly-id", String(transaction.id)), ("ledgerly-liability-entry", String(payment.entryId))], tags: transaction.tags,
            postings: [JournalPosting(payment.account, paid, cost: cost), JournalPosting(walletAccount(wallet.id), walletAmount.signed(-1), cost: walletCost)])
    }

    /// One entry for both legs: the destination's posting first, then the source's. Each is at
    /// cost in the base when its wallet is not in the base; without base amounts, the destination
    /// is priced at what left the source, so the entry still balances.
    private func transferEntry(outgoing: TransactionRecord, incoming: TransactionRecord) throws(Skip) -> JournalEntry {
        let source = try wallet(outgoing.walletId)
        let destination = try wallet(incoming.walletId)
        try requireDate(outgoing.date)
        try requireDate(incoming.date)
        let sent = try parse(outgoing.walletAmount, source.currency, "walletAmount")
        let received = try parse(incoming.walletAmount, destination.currency, "walletAmount")
        let baseCode = incoming.baseCurrency?.uppercased() ?? outgoing.baseCurrency?.uppercased() ?? baseCurrency

        var incomingPosting = JournalPosting(walletAccount(destination.id), received.signed(incoming.kind.sign))
        var outgoingPosting = JournalPosting(walletAccount(source.id), sent.signed(outgoing.kind.sign))
        if let baseCode, let sentBase = try legBase(outgoing, walletAmount: sent, baseCode: baseCode),
           let receivedBase = try legBase(incoming, walletAmount: received, baseCode: baseCode) {
            if received.commodity != baseCode { incomingPosting.cost = receivedBase }
            if sent.commodity != baseCode { outgoingPosting.cost = sentBase }
        } else if received.commodity != sent.commodity {
            incomingPosting.cost = sent
        }
        // The entry is dated when the money had both left and arrived, the later of the legs'
        // dates, so in a journal written in date order (as the second leg comes) the dates never
        // go back; the other leg's posting keeps its own date in the bracketed form both tools
        // read (hledger's `date:` tag is ignored by ledger).
        let date = max(outgoing.date, incoming.date)
        if incoming.date != date { incomingPosting.date = incoming.date }
        if outgoing.date != date { outgoingPosting.date = outgoing.date }

        let notes = JournalSyntax.description(outgoing.notes) != JournalSyntax.description(nil) ? outgoing.notes : incoming.notes
        var tags: [String] = []
        for tag in outgoing.tags + incoming.tags where !tags.contains(tag) { tags.append(tag) }
        return JournalEntry(
            date: date, code: String(outgoing.id), description: JournalSyntax.description(notes), notes: notes, describedByNotes: true,
            metadata: [("ledgerly-id", String(outgoing.id)), ("ledgerly-counterpart-id", String(incoming.id))], tags: tags,
            postings: [incomingPosting, outgoingPosting])
    }

    /// A leg alone: its wallet posting and the same amount back on `equity:unmatched transfers`.
    private func unmatchedLegEntry(_ leg: TransactionRecord) throws(Skip) -> JournalEntry {
        let wallet = try wallet(leg.walletId)
        try requireDate(leg.date)
        let walletAmount = try parse(leg.walletAmount, wallet.currency, "walletAmount")
        let base = try baseAmount(of: leg)
        let cost = base.flatMap { $0.commodity != walletAmount.commodity ? $0 : nil }
        let counterpart = leg.transfer.map { String($0.counterpartyTransactionId) } ?? "?"
        return JournalEntry(
            date: leg.date, code: String(leg.id), description: JournalSyntax.description(leg.notes), notes: leg.notes, describedByNotes: true,
            metadata: [("ledgerly-id", String(leg.id)), ("ledgerly-counterpart-id", counterpart)],
            remarks: ["transfer leg without its counterpart in this export"], tags: leg.tags,
            postings: [
                JournalPosting(walletAccount(wallet.id), walletAmount.signed(leg.kind.sign), cost: cost),
                JournalPosting(JournalAccounts.unmatchedTransfers, walletAmount.signed(-leg.kind.sign), cost: cost),
            ])
    }

    // MARK: Helpers

    /// The outgoing (expense) leg and the incoming (income) leg; by id when the kinds do not say.
    private static func orderLegs(_ first: TransactionRecord, _ second: TransactionRecord) -> (TransactionRecord, TransactionRecord) {
        if first.kind == .expense && second.kind == .income { return (first, second) }
        if first.kind == .income && second.kind == .expense { return (second, first) }
        return first.id <= second.id ? (first, second) : (second, first)
    }

    /// The base amount a leg carries in `baseCode`: the wallet amount itself when the wallet is in
    /// the base (that is what the store gives both legs then), else the stored base amount.
    private func legBase(_ leg: TransactionRecord, walletAmount: JournalAmount, baseCode: String) throws(Skip) -> JournalAmount? {
        if walletAmount.commodity == baseCode { return walletAmount }
        guard let base = try baseAmount(of: leg), base.commodity == baseCode else { return nil }
        return base
    }

    /// The transaction's base amount in its base currency (the record's, else the writer's); nil
    /// while the store had no rate.
    private func baseAmount(of transaction: TransactionRecord) throws(Skip) -> JournalAmount? {
        guard let text = transaction.baseAmount, let code = transaction.baseCurrency ?? baseCurrency else { return nil }
        return try parse(text, code, "baseAmount")
    }

    private func wallet(_ id: Int64) throws(Skip) -> WalletRecord {
        guard let wallet = wallets[id] else { throw Skip(reason: "wallet \(id) is not among the exported wallets") }
        return wallet
    }

    private func requireDate(_ date: String) throws(Skip) {
        guard LedgerDate(date) != nil else { throw Skip(reason: "'\(JournalSyntax.commentText(date))' is not a YYYY-MM-DD date") }
    }

    private func parse(_ text: String, _ code: String, _ field: String) throws(Skip) -> JournalAmount {
        do {
            if let known = knownCurrencies.first(where: { $0.code == code }) { return try JournalAmount(parsing: text, currency: known) }
            return try JournalAmount(parsing: text, commodity: code)
        } catch {
            throw Skip(reason: "\(field): \(JournalSyntax.commentText(error.description))")
        }
    }

    /// The entry's text, preceded by directives for any commodity or account it uses first; on a
    /// `Skip`, a comment saying which transaction was left out and why.
    private mutating func render(_ id: Int64, _ build: (JournalWriter) throws(Skip) -> JournalEntry) -> String {
        var entry: JournalEntry
        do {
            entry = try build(self)
        } catch {
            skippedTransactionIds.append(id)
            return "; ledgerly: transaction \(id) left out: \(error.reason)\n\n"
        }
        entry.postings += JournalPosting.balancing(entry.postings, account: JournalAccounts.conversionDifferences)
        let prepared = prepare(entry)
        return (prepared.directives.isEmpty ? "" : prepared.directives + "\n") + prepared.text
    }

    /// The entry in the writer's dialect.
    private mutating func text(of entry: JournalEntry) -> String {
        switch dialect {
        case .ledger: entry.ledgerText(comments: entry.ledgerComments)
        case .beancount: entry.beancountText(names: &beancountNames)
        }
    }

    /// Directives for the commodities and accounts `entry` uses, and the tags its comment lines
    /// show, that were not declared yet; they count as declared from now on.
    private mutating func declarations(for entry: JournalEntry, comments: [String]) -> String {
        var directives = ""
        // `insert` says whether it was new: one look-up, and no array per posting.
        func declare(_ commodity: String) {
            if declaredCommodities.insert(commodity).inserted { directives += commodityDirective(commodity) }
        }
        for posting in entry.postings {
            declare(posting.amount.commodity)
            if let cost = posting.cost { declare(cost.commodity) }
            if !declaredAccounts.contains(posting.account) {
                declaredAccounts.insert(posting.account)
                directives += accountDirective(posting.account)
            }
        }
        for (index, comment) in comments.enumerated() {
            // The ids line (`ledgerly-id:12, ledgerly-counterpart-id:13`, first when there is
            // metadata): with plain keys and numeric values both tools read exactly the keys, all
            // declared by `header()`, so it is not read word by word for every entry.
            if index == 0, !entry.metadata.isEmpty, entry.metadata.allSatisfy({ declaredTags.contains($0.key) && Self.isPlainId($0.value) }) { continue }
            for tag in JournalSyntax.tagsRead(inComment: comment) where !declaredTags.contains(tag) {
                declaredTags.insert(tag)
                directives += "tag \(tag)\n"
            }
        }
        return directives
    }

    /// Digits only, or "?" (a leg whose counterpart is unknown): no ':', ',' or space to read a tag in.
    private static func isPlainId(_ value: String) -> Bool {
        value == "?" || (!value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
    }

    /// An entry written apart from the transactions (a valuation, a liability's balance): its
    /// text, and the directives it needs, which the caller writes before any transaction since
    /// the entry itself goes among them by date (`DatedEntries`).
    /// `render` writes a transaction's entry through here too. The comment lines are made once:
    /// the tags they show are declared, and they are written.
    mutating func prepare(_ entry: JournalEntry) -> (directives: String, text: String) {
        switch dialect {
        case .ledger:
            let comments = entry.ledgerComments
            return (declarations(for: entry, comments: comments), entry.ledgerText(comments: comments))
        case .beancount:
            // Tags are not declared in beancount; the directives name accounts before the text does.
            let directives = declarations(for: entry, comments: [])
            return (directives, entry.beancountText(names: &beancountNames))
        }
    }
}

/// A liability payment as the journal writes it: the transaction that paid it is posted to the
/// liability's account with the amount paid in the liability's currency (which can differ from
/// the transaction's when the wallet's amount was given).
public struct LiabilityPayment: Hashable, Sendable {
    public var account: String
    public var amount: String
    public var currency: String
    public var entryId: Int64

    public init(account: String, amount: String, currency: String, entryId: Int64) {
        self.account = account
        self.amount = amount
        self.currency = currency
        self.entryId = entryId
    }
}
