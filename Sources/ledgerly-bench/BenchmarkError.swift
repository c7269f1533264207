/// Why a benchmark could not run.
enum BenchmarkError: Error, CustomStringConvertible {
    case storeDidNotStart(seconds: Int)

    var description: String {
        switch self {
        case .storeDidNotStart(let seconds): "ledgerly-store did not answer within \(seconds) s"
        }
    }
}
