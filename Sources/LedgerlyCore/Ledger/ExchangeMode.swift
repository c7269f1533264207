/// Which rate series converts amounts to the base currency.
public enum ExchangeMode: String, Codable, CaseIterable, Sendable {
    /// Central-bank and market reference rates (ECB and similar feeds).
    case official
    /// Street / parallel-market rates, for countries where the official rate is not what people pay.
    case parallel
    /// Only rates the user types in; nothing is fetched.
    case manual

    /// What the mode fetches and when (D400): shown at setup's step 3, its summary and
    /// `settings show`, so the choice says what leaves the machine.
    public var summary: String {
        switch self {
        case .official:
            "reference rates from official feeds (e.g. the ECB), fetched once setup is done, when a currency comes into use and every refresh interval (60 min by default); prices of the securities you hold or watch too"
        case .parallel:
            "parallel-market rates you drop in or fetch from a parallel feed; the configured feeds and security prices are fetched as in official"
        case .manual:
            "only the rates (and security prices) you enter yourself; nothing is fetched"
        }
    }

    public var whenToUse: String {
        switch self {
        case .official: "your currencies trade freely and bank rates match what you pay"
        case .parallel: "you live with a currency whose street rate differs from the official one"
        case .manual: "you want full control, or work offline"
        }
    }
}
