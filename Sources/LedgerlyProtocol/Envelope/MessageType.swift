/// Every request type the services answer. The reply's type is the request's plus `.ok`, or `error`.
///
/// To find where a message is handled, search for its case here and follow it to the router
/// of the service that owns it (`StoreRouter` for the store).
public enum MessageType: String, CaseIterable, Sendable {
    // Any service
    case status = "status"
    // Store: settings and first-run setup
    case settingsGet = "settings.get"
    case settingsUpdate = "settings.update"
    case setupSave = "setup.save"
    case setupComplete = "setup.complete"
    // Store: ledger
    case walletCreate = "wallet.create"
    case walletList = "wallet.list"
    case walletGet = "wallet.get"
    case walletUpdate = "wallet.update"
    case walletArchive = "wallet.archive"
    case categoryCreate = "category.create"
    case categoryList = "category.list"
    case categoryUpdate = "category.update"
    case tagCreate = "tag.create"
    case tagList = "tag.list"
    case txCreate = "tx.create"
    case txGet = "tx.get"
    case txList = "tx.list"
    case txUpdate = "tx.update"
    case txDelete = "tx.delete"
    case txTransfer = "tx.transfer"
    case txImport = "tx.import"
    case txImportUndo = "tx.import.undo"
    case txExport = "tx.export"
    // Store: restoring an export into a new ledger (docs/reports-import-export.md)
    case ledgerRestoreBegin = "ledger.restore.begin"
    case ledgerRestoreFinish = "ledger.restore.finish"
    // Store: reports
    case reportBalance = "report.balance"
    case reportCategories = "report.categories"
    case reportCashflow = "report.cashflow"
    case reportPayees = "report.payees"
    // Store: exchange rates and conversion
    case ratesProfileList = "rates.profile.list"
    case ratesProfileCreate = "rates.profile.create"
    case ratesProfileUse = "rates.profile.use"
    case ratesSet = "rates.set"
    case ratesList = "rates.list"
    case ratesHistory = "rates.history"
    case ratesBatch = "rates.batch"
    case ratesExport = "rates.export"
    case ratesRestore = "rates.restore"
    case ratesOverrideEnd = "rates.override.end"
    case ratesProviderReport = "rates.provider.report"
    case ratesProviderList = "rates.provider.list"
    case ratesProviderForget = "rates.provider.forget"
    case ratesWaiting = "rates.waiting"
    case ledgerBackup = "ledger.backup"
    case convert = "convert"
    case convertHistory = "convert.history"
    // Store: budgets, goals, recurring transactions, alerts
    case budgetSet = "budget.set"
    case budgetList = "budget.list"
    case budgetDelete = "budget.delete"
    case budgetStatus = "budget.status"
    case goalCreate = "goal.create"
    case goalList = "goal.list"
    case goalGet = "goal.get"
    case goalFund = "goal.fund"
    case goalAutoFund = "goal.autofund"
    case goalContributions = "goal.contributions"
    case recurringCreate = "recurring.create"
    case recurringList = "recurring.list"
    case recurringPause = "recurring.pause"
    case recurringDelete = "recurring.delete"
    case recurringPost = "recurring.post"
    case alertRaise = "alert.raise"
    case alertList = "alert.list"
    // Rates service
    case ratesRefresh = "rates.refresh"
    // Store: change log
    case eventsSince = "events.since"

    public var replyType: String { rawValue + ".ok" }

    /// Writes must carry an idempotency `key`; the store applies a key at most once.
    public var isWrite: Bool {
        switch self {
        case .settingsUpdate, .setupSave, .setupComplete, .walletCreate, .walletUpdate, .walletArchive,
             .categoryCreate, .categoryUpdate, .tagCreate, .txCreate, .txUpdate, .txDelete, .txTransfer, .txImport, .txImportUndo,
             .ledgerRestoreBegin, .ledgerRestoreFinish, .ratesRestore,
             .ratesProfileCreate, .ratesProfileUse, .ratesSet, .ratesBatch, .ratesOverrideEnd, .ratesProviderReport, .ratesProviderForget, .convert,
             .budgetSet, .budgetDelete, .alertRaise, .recurringCreate, .recurringPause, .recurringDelete, .recurringPost,
             .goalCreate, .goalFund, .goalAutoFund:
            true
        default:
            false
        }
    }

    /// Messages the store answers before `ledgerly setup` has been completed. Rates are among
    /// them so the rates service can fetch and the setup flow can preview conversions.
    public var allowedBeforeSetup: Bool {
        switch self {
        case .status, .settingsGet, .settingsUpdate, .setupSave, .setupComplete, .eventsSince, .ledgerBackup,
             .ratesProfileList, .ratesList, .ratesBatch, .ratesProviderReport, .ratesProviderForget, .ratesProviderList, .convert:
            true
        default: false
        }
    }

    /// The Swift type of the request body.
    public var requestBody: any RequestBody.Type {
        switch self {
        case .status: StatusRequest.self
        case .settingsGet: SettingsGetRequest.self
        case .settingsUpdate: SettingsUpdateRequest.self
        case .setupSave: SetupSaveRequest.self
        case .setupComplete: SetupCompleteRequest.self
        case .ledgerRestoreBegin: LedgerRestoreBeginRequest.self
        case .ledgerRestoreFinish: LedgerRestoreFinishRequest.self
        case .ratesExport: RateExportRequest.self
        case .ratesRestore: RateRestoreRequest.self
        case .goalContributions: GoalContributionsRequest.self
        case .walletCreate: WalletCreateRequest.self
        case .walletList: WalletListRequest.self
        case .walletGet: WalletGetRequest.self
        case .walletUpdate: WalletUpdateRequest.self
        case .walletArchive: WalletArchiveRequest.self
        case .categoryCreate: CategoryCreateRequest.self
        case .categoryList: CategoryListRequest.self
        case .categoryUpdate: CategoryUpdateRequest.self
        case .tagCreate: TagCreateRequest.self
        case .tagList: TagListRequest.self
        case .txCreate: TransactionCreateRequest.self
        case .txGet: TransactionGetRequest.self
        case .txList: TransactionListRequest.self
        case .txUpdate: TransactionUpdateRequest.self
        case .txDelete: TransactionDeleteRequest.self
        case .txTransfer: TransferCreateRequest.self
        case .txImport: TransactionImportRequest.self
        case .txImportUndo: TransactionImportUndoRequest.self
        case .txExport: TransactionExportRequest.self
        case .reportBalance: BalanceReportRequest.self
        case .reportCategories: CategoryReportRequest.self
        case .reportCashflow: CashFlowReportRequest.self
        case .reportPayees: PayeeReportRequest.self
        case .ratesProfileList: RateProfileListRequest.self
        case .ratesProfileCreate: RateProfileCreateRequest.self
        case .ratesProfileUse: RateProfileUseRequest.self
        case .ratesSet: RateSetRequest.self
        case .ratesList: RateListRequest.self
        case .ratesHistory: RateHistoryRequest.self
        case .ratesBatch: RateBatchRequest.self
        case .ratesOverrideEnd: RateOverrideEndRequest.self
        case .ratesProviderReport: RateProviderReportRequest.self
        case .ratesProviderList: RateProviderListRequest.self
        case .ratesProviderForget: RateProviderForgetRequest.self
        case .ratesWaiting: RatesWaitingRequest.self
        case .ledgerBackup: LedgerBackupRequest.self
        case .convert: ConvertRequest.self
        case .convertHistory: ConversionHistoryRequest.self
        case .budgetSet: BudgetSetRequest.self
        case .budgetList: BudgetListRequest.self
        case .budgetDelete: BudgetDeleteRequest.self
        case .budgetStatus: BudgetStatusRequest.self
        case .goalCreate: GoalCreateRequest.self
        case .goalList: GoalListRequest.self
        case .goalGet: GoalGetRequest.self
        case .goalFund: GoalFundRequest.self
        case .goalAutoFund: GoalAutoFundRequest.self
        case .recurringCreate: RecurringCreateRequest.self
        case .recurringList: RecurringListRequest.self
        case .recurringPause: RecurringPauseRequest.self
        case .recurringDelete: RecurringDeleteRequest.self
        case .recurringPost: RecurringPostRequest.self
        case .alertRaise: AlertRaiseRequest.self
        case .alertList: AlertListRequest.self
        case .ratesRefresh: RatesRefreshRequest.self
        case .eventsSince: EventsSinceRequest.self
        }
    }
}

/// A request body: knows its message type and the body type of its `.ok` reply.
public protocol RequestBody: Codable, Sendable {
    associatedtype Reply: Codable & Sendable
    static var messageType: MessageType { get }
}

extension RequestBody {
    /// The reply body's type, as an existential, for tests that walk every message.
    public static var replyBody: any (Codable & Sendable).Type { Reply.self }
}
