/// The version every executable reports in `--version` and `status`.
public enum LedgerlyVersion {
    public static let current = "0.1.0"
}
