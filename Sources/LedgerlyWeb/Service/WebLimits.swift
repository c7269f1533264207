/// Bounds on what a request may bring.
public enum WebLimits {
    /// A form body: far above any form's honest size, far below what could hurt (D511).
    public static let bodyBytes = 64 * 1024
    /// A statement uploaded on /import: years of a busy account's statement fit, and the parsed
    /// preview it makes stays small enough to keep in memory a while (D600).
    public static let uploadBytes = 4 * 1024 * 1024
    /// Transactions on one page of a wallet.
    public static let pageSize = 50
}
