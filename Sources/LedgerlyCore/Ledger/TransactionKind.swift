/// Whether a transaction takes money out of its wallet (expense) or puts money in (income).
/// Amounts are always stored positive; the kind gives the sign of the wallet effect.
public enum TransactionKind: String, Codable, CaseIterable, Sendable {
    case expense, income

    /// +1 for income, -1 for expense: the sign of this kind's effect on a wallet balance.
    public var sign: Int64 { self == .income ? 1 : -1 }
}
