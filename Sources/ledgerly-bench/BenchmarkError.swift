import LedgerlyRuntime

/// Why a benchmark could not run.
enum BenchmarkError: Error, CustomStringConvertible {
    case storeDidNotStart(seconds: Int)
    case missingInput(String)
    /// A figure that must agree did not (loaded counts, totals against a peer).
    case mismatch(String)
    /// A peer tool (hledger, ledger) or the CLI failed.
    case commandFailed(String)

    var description: String {
        switch self {
        case .storeDidNotStart(let seconds): "\(LedgerlyService.store.name) did not answer within \(seconds) s"
        case .missingInput(let reason): reason
        case .mismatch(let what): "mismatch: \(what)"
        case .commandFailed(let what): what
        }
    }
}
