/// What kind of money a wallet holds; it decides nothing in the ledger, only icons and grouping.
public enum WalletType: String, Codable, CaseIterable, Sendable {
    case salary, cash, bank, freelance, custom
}
