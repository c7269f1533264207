import LedgerlyCore
import LedgerlyProtocol

/// Writes an export's manual assets and liabilities as journal entries that hledger reads, so that
/// an account's balance on any day is what Ledgerly says it is worth or owed then
/// (PROTOCOL.md §20):
///
/// - a manual asset is the account `assets:manual:<name>`; each valuation, in order of day then
///   id, is an entry moving the change in value (this valuation less the one before) between it
///   and `equity:revaluation`, in the asset's currency. So the balance on a day is the latest
///   valuation on or before it.
/// - a liability is the account `liabilities:<name>`, holding what is owed as a negative amount;
///   each `balance` entry moves the change in the balance (its `balanceAfter` less the entry
///   before's) between it and `equity:revaluation`. A change in a balance is a revaluation, not
///   spending: Ledgerly counts neither a statement's interest nor an opening balance in any
///   category, and the journal's `expenses` must keep agreeing with its reports.
/// - a payment is its transaction: `JournalWriter` writes the transactions named in `payments`
///   as the amount paid onto the liability's account (in its currency, at cost in the base like
///   any foreign posting) against the wallet, instead of an expense: the payment is written once.
public struct NetWorthJournal: Sendable {
    private let netWorth: NetWorthRestore
    private let assetAccounts: [Int64: String]
    private let liabilityAccounts: [Int64: String]

    static let revaluation = "equity:revaluation"

    public init(_ netWorth: NetWorthRestore) {
        self.netWorth = netWorth
        var taken = Set<String>()
        var assets: [Int64: String] = [:]
        for asset in netWorth.assets.sorted(by: { $0.id < $1.id }) where assets[asset.id] == nil {
            assets[asset.id] = Self.unique("assets:manual:" + JournalSyntax.accountPart(asset.name), id: asset.id, taken: &taken)
        }
        var liabilities: [Int64: String] = [:]
        for liability in netWorth.liabilities.sorted(by: { $0.id < $1.id }) where liabilities[liability.id] == nil {
            liabilities[liability.id] = Self.unique("liabilities:" + JournalSyntax.accountPart(liability.name), id: liability.id, taken: &taken)
        }
        self.assetAccounts = assets
        self.liabilityAccounts = liabilities
    }

    /// Payment transactions by id, with the liability's account and the amount paid in its
    /// currency: give these to `JournalWriter.payments` before writing the transactions.
    public var payments: [Int64: LiabilityPayment] {
        var payments: [Int64: LiabilityPayment] = [:]
        for liability in netWorth.liabilities {
            guard let account = liabilityAccounts[liability.id] else { continue }
            for entry in liability.history ?? [] where entry.kind == .payment {
                guard let transaction = entry.transactionId else { continue }
                payments[transaction] = LiabilityPayment(account: account, amount: entry.amount, currency: liability.currency, entryId: entry.id)
            }
        }
        return payments
    }

    public func assetAccount(_ id: Int64) -> String? { assetAccounts[id] }
    public func liabilityAccount(_ id: Int64) -> String? { liabilityAccounts[id] }

    /// The directives it needs that `writer` has not declared yet, and one entry per valuation
    /// and per `balance` entry, added to `dated` to be written among the transactions by date.
    public func entries(declaringWith writer: inout JournalWriter, into dated: inout DatedEntries) {
        var body: [(date: String, entry: JournalEntry?, text: String)] = []
        var commodities: [String] = []
        var accounts: [String] = []
        for asset in netWorth.assets.sorted(by: { $0.id < $1.id }) {
            guard let account = assetAccounts[asset.id] else { continue }
            let valuations = (asset.valuations ?? []).sorted { ($0.date, $0.id) < ($1.date, $1.id) }
            guard !valuations.isEmpty else { continue }
            commodities.append(asset.currency)
            accounts.append(account)
            var previous: Int64 = 0
            for valuation in valuations {
                guard LedgerDate(valuation.date) != nil, let value = try? JournalAmount(parsing: valuation.value, commodity: asset.currency) else {
                    body.append((valuation.date, nil, "; ledgerly: valuation \(valuation.id) of asset \(asset.id) left out: it could not be read\n\n"))
                    continue
                }
                let change = value.with(minorUnits: value.minorUnits - previous)
                previous = value.minorUnits
                body.append((valuation.date, JournalEntry(
                    date: valuation.date, code: "valuation-\(valuation.id)",
                    description: JournalSyntax.description("\(asset.name): valued \(value.journalText)"), notes: valuation.notes,
                    metadata: [("ledgerly-asset", String(asset.id)), ("ledgerly-valuation", String(valuation.id))],
                    postings: [JournalPosting(account, change), JournalPosting(Self.revaluation, change.signed(-1))]), ""))
            }
        }
        for liability in netWorth.liabilities.sorted(by: { $0.id < $1.id }) {
            guard let account = liabilityAccounts[liability.id] else { continue }
            let history = (liability.history ?? []).sorted { ($0.date, $0.id) < ($1.date, $1.id) }
            guard !history.isEmpty else { continue }
            commodities.append(liability.currency)
            accounts.append(account)
            var previous: Int64 = 0
            for entry in history {
                guard LedgerDate(entry.date) != nil, let after = try? JournalAmount(parsing: entry.balanceAfter, commodity: liability.currency) else {
                    body.append((entry.date, nil, "; ledgerly: entry \(entry.id) of liability \(liability.id) left out: it could not be read\n\n"))
                    continue
                }
                defer { previous = after.minorUnits }
                // A payment is its transaction's entry (`payments`).
                guard entry.kind == .balance else { continue }
                let change = after.with(minorUnits: after.minorUnits - previous)
                body.append((entry.date, JournalEntry(
                    date: entry.date, code: "liability-entry-\(entry.id)",
                    description: JournalSyntax.description("\(liability.name): balance \(after.journalText)"), notes: entry.notes,
                    metadata: [("ledgerly-liability", String(liability.id)), ("ledgerly-liability-entry", String(entry.id))],
                    postings: [JournalPosting(account, change.signed(-1)), JournalPosting(Self.revaluation, change)]), ""))
            }
        }
        guard !accounts.isEmpty else { return }
        var directives = writer.declare(commodities: commodities, accounts: accounts + [Self.revaluation])
        for item in body {
            guard let entry = item.entry else {
                dated.add(date: item.date, text: item.text)
                continue
            }
            let prepared = writer.prepare(entry)
            directives += prepared.directives
            dated.add(date: item.date, text: prepared.text)
        }
        dated.addDirectives("; Net worth: manual assets at their valuations, liabilities at their balances (payments are their transactions)\n"
            + directives + "\n")
    }

    /// `base`, or `base #id` (then `base #id-2`, …) when another asset or liability took it.
    private static func unique(_ base: String, id: Int64, taken: inout Set<String>) -> String {
        var candidate = base
        var attempt = 1
        while taken.contains(candidate) {
            candidate = attempt == 1 ? "\(base) #\(id)" : "\(base) #\(id)-\(attempt)"
            attempt += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
