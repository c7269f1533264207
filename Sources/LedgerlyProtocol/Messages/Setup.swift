import LedgerlyCore

/// `setup.save`: stores partial onboarding progress (the interactive flow calls it at every step).
public struct SetupSaveRequest: WriteRequest, Hashable {
    public typealias Reply = SettingsRecord
    public static let messageType: MessageType = "setup.save"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var progress: OnboardingProgress
    public init(progress: OnboardingProgress) { self.progress = progress }
}

/// `setup.complete`: the final step; after it the store answers ledger commands.
public struct SetupCompleteRequest: WriteRequest, Hashable {
    public typealias Reply = SettingsRecord
    public static let messageType: MessageType = "setup.complete"
    /// Answered before setup is complete (PROTOCOL.md §7).
    public static let allowedBeforeSetup = true
    public var baseCurrency: String
    public var exchangeMode: ExchangeMode
    public var cloudSync: Bool

    public init(baseCurrency: String, exchangeMode: ExchangeMode, cloudSync: Bool) {
        self.baseCurrency = baseCurrency
        self.exchangeMode = exchangeMode
        self.cloudSync = cloudSync
    }
}
