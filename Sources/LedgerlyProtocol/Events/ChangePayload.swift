/// An event's data, typed by the event's `type`: what the subscriber services switch over, so a
/// consumer names the changes it acts on and gets their records without decoding by hand. A type
/// this version does not know is `.unknown`, never an error: a newer store may publish event
/// types an older subscriber has not heard of, and the subscriber must pass them over.
public enum ChangePayload: Sendable {
    case settingsUpdated(SettingsRecord)
    case setupCompleted(SettingsRecord)
    case walletCreated(WalletRecord)
    case walletUpdated(WalletRecord)
    case walletArchived(WalletRecord)
    case categoryCreated(CategoryRecord)
    case categoryUpdated(CategoryRecord)
    case tagCreated(TagRecord)
    case txCreated(TransactionRecord)
    case txUpdated(TransactionRecord)
    case txDeleted(TransactionRecord)
    case txImported(TransactionImportSummary)
    case txImportUndone(TransactionImportSummary)
    case rateProfileCreated(RateProfileRecord)
    case rateProfileUpdated(RateProfileRecord)
    case ratesUpdated(RatesUpdatedSummary)
    case rateOverrideEnded(RateRecord)
    case rateProviderStatus(RateProviderStatus)
    case rateProviderRemoved(RateProviderStatus)
    case conversionRecorded(ConversionRecord)
    case budgetCreated(BudgetRecord)
    case budgetUpdated(BudgetRecord)
    case budgetDeleted(BudgetRecord)
    case goalCreated(GoalRecord)
    case goalUpdated(GoalRecord)
    case recurringCreated(RecurringRecord)
    case recurringUpdated(RecurringRecord)
    case recurringDeleted(RecurringRecord)
    case alertRaised(AlertRecord)
    case ledgerRestored(LedgerRestoreBeginReply)
    case investAccountCreated(InvestAccountRecord)
    case investAccountUpdated(InvestAccountRecord)
    case assetCreated(AssetRecord)
    case assetUpdated(AssetRecord)
    case tradeRecorded(TradeRecord)
    case tradeDeleted(TradeRecord)
    case tradesImported(TradeImportReply)
    case pricesUpdated(PricesUpdatedSummary)
    case allocationUpdated(AllocationReply)
    /// An event type this version does not know (its `type`).
    case unknown(String)
}

extension ChangeEvent {
    /// The event's type, or nil for one this version does not know.
    public var kind: ChangeEventType? { ChangeEventType(rawValue: type) }

    /// The event's data as its record. Throws `DecodingError` when a known type's data does not
    /// match its record (a store bug, or a change this version cannot read).
    public func payload() throws -> ChangePayload {
        guard let kind else { return .unknown(type) }
        switch kind {
        case .settingsUpdated: return .settingsUpdated(try data.decode(SettingsRecord.self))
        case .setupCompleted: return .setupCompleted(try data.decode(SettingsRecord.self))
        case .walletCreated: return .walletCreated(try data.decode(WalletRecord.self))
        case .walletUpdated: return .walletUpdated(try data.decode(WalletRecord.self))
        case .walletArchived: return .walletArchived(try data.decode(WalletRecord.self))
        case .categoryCreated: return .categoryCreated(try data.decode(CategoryRecord.self))
        case .categoryUpdated: return .categoryUpdated(try data.decode(CategoryRecord.self))
        case .tagCreated: return .tagCreated(try data.decode(TagRecord.self))
        case .txCreated: return .txCreated(try data.decode(TransactionRecord.self))
        case .txUpdated: return .txUpdated(try data.decode(TransactionRecord.self))
        case .txDeleted: return .txDeleted(try data.decode(TransactionRecord.self))
        case .txImported: return .txImported(try data.decode(TransactionImportSummary.self))
        case .txImportUndone: return .txImportUndone(try data.decode(TransactionImportSummary.self))
        case .rateProfileCreated: return .rateProfileCreated(try data.decode(RateProfileRecord.self))
        case .rateProfileUpdated: return .rateProfileUpdated(try data.decode(RateProfileRecord.self))
        case .ratesUpdated: return .ratesUpdated(try data.decode(RatesUpdatedSummary.self))
        case .rateOverrideEnded: return .rateOverrideEnded(try data.decode(RateRecord.self))
        case .rateProviderStatus: return .rateProviderStatus(try data.decode(RateProviderStatus.self))
        case .rateProviderRemoved: return .rateProviderRemoved(try data.decode(RateProviderStatus.self))
        case .conversionRecorded: return .conversionRecorded(try data.decode(ConversionRecord.self))
        case .budgetCreated: return .budgetCreated(try data.decode(BudgetRecord.self))
        case .budgetUpdated: return .budgetUpdated(try data.decode(BudgetRecord.self))
        case .budgetDeleted: return .budgetDeleted(try data.decode(BudgetRecord.self))
        case .goalCreated: return .goalCreated(try data.decode(GoalRecord.self))
        case .goalUpdated: return .goalUpdated(try data.decode(GoalRecord.self))
        case .recurringCreated: return .recurringCreated(try data.decode(RecurringRecord.self))
        case .recurringUpdated: return .recurringUpdated(try data.decode(RecurringRecord.self))
        case .recurringDeleted: return .recurringDeleted(try data.decode(RecurringRecord.self))
        case .alertRaised: return .alertRaised(try data.decode(AlertRecord.self))
        case .ledgerRestored: return .ledgerRestored(try data.decode(LedgerRestoreBeginReply.self))
        case .investAccountCreated: return .investAccountCreated(try data.decode(InvestAccountRecord.self))
        case .investAccountUpdated: return .investAccountUpdated(try data.decode(InvestAccountRecord.self))
        case .assetCreated: return .assetCreated(try data.decode(AssetRecord.self))
        case .assetUpdated: return .assetUpdated(try data.decode(AssetRecord.self))
        case .tradeRecorded: return .tradeRecorded(try data.decode(TradeRecord.self))
        case .tradeDeleted: return .tradeDeleted(try data.decode(TradeRecord.self))
        case .tradesImported: return .tradesImported(try data.decode(TradeImportReply.self))
        case .pricesUpdated: return .pricesUpdated(try data.decode(PricesUpdatedSummary.self))
        case .allocationUpdated: return .allocationUpdated(try data.decode(AllocationReply.self))
        }
    }
}
