import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly export json`: everything needed to rebuild the ledger, in the protocol's own record
/// shapes (so the format is documented by `protocol/`), re-importable with `ledgerly import json`.
///
/// Two top-level members, `ledgerly` (the header: settings, wallets, categories, tags, budgets,
/// rate profiles and history, goals with their contributions, recurring templates, the alert log
/// and the conversion history) and `transactions`, so a writer can stream a million transactions
/// after the header.
public struct LedgerExport: Codable, Sendable {
    /// Version 1 had settings, wallets, categories, tags and budgets; version 2 added the rest
    /// but investments, version 3 added investments, version 4 net worth (manual assets,
    /// liabilities, snapshots); a member a file's version did not have is absent, hence nil.
    public struct Header: Codable, Sendable {
        public var format: String
        public var version: Int
        public var exportedAt: String
        public var settings: SettingsRecord
        public var wallets: [WalletRecord]
        public var categories: [CategoryRecord]
        public var tags: [TagRecord]
        public var budgets: [BudgetRecord]
        public var rateProfiles: [RateProfileRecord]?
        public var rates: [RateRecord]?
        public var goals: [GoalRestore]?
        public var recurring: [RecurringRecord]?
        public var alerts: [AlertRecord]?
        public var conversions: [ConversionRecord]?
        public var investments: InvestmentRestore?
        /// Absent when the ledger has no manual assets, liabilities or snapshots.
        public var netWorth: NetWorthRestore?

        public static let formatName = "ledgerly-export"
        public static let currentVersion = 4

        public init(exportedAt: String, settings: SettingsRecord, wallets: [WalletRecord], categories: [CategoryRecord], tags: [TagRecord], budgets: [BudgetRecord],
                    rateProfiles: [RateProfileRecord], rates: [RateRecord], goals: [GoalRestore], recurring: [RecurringRecord], alerts: [AlertRecord],
                    conversions: [ConversionRecord], investments: InvestmentRestore? = nil, netWorth: NetWorthRestore? = nil) {
            self.format = Self.formatName
            self.version = Self.currentVersion
            self.exportedAt = exportedAt
            self.settings = settings
            self.wallets = wallets
            self.categories = categories
            self.tags = tags
            self.budgets = budgets
            self.rateProfiles = rateProfiles
            self.rates = rates
            self.goals = goals
            self.recurring = recurring
            self.alerts = alerts
            self.conversions = conversions
            self.investments = investments
            self.netWorth = netWorth
        }
    }

    public var ledgerly: Header
    public var transactions: [TransactionRecord]

    /// The text before the first transaction; then `transaction(_:first:)` per record, then `end`.
    public static func opening(_ header: Header) throws -> String {
        "{\"ledgerly\":" + String(decoding: try encoder.encode(header), as: UTF8.self) + ",\n\"transactions\":[\n"
    }

    public static func transaction(_ record: TransactionRecord, first: Bool) throws -> String {
        (first ? "" : ",\n") + String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    /// What `transaction(_:first:)` gives, as bytes, without Foundation's encoder: the same
    /// bytes (`TransactionExportCoding` writes the record as `encoder` does; D260).
    /// `snapshots`: the rate snapshots already written, kept by the caller across records.
    public static func appendTransaction(_ record: TransactionRecord, first: Bool, to out: inout [UInt8], snapshots: inout TransactionExportCoding.SnapshotBytes) {
        if !first {
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\n"))
        }
        TransactionExportCoding.append(record, to: &out, snapshots: &snapshots)
    }

    /// A record already written by `TransactionExportCoding.append` (an export page's own
    /// bytes), placed as `appendTransaction` places one.
    public static func appendTransactionBytes(_ record: ArraySlice<UInt8>, first: Bool, to out: inout [UInt8]) {
        if !first {
            out.append(UInt8(ascii: ","))
            out.append(UInt8(ascii: "\n"))
        }
        out.append(contentsOf: record)
    }

    public static let end = "\n]}\n"

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
