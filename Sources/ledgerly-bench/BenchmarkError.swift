/// Why a benchmark could not run.
enum BenchmarkError: Error, CustomStringConvertible {
    case storeDidNotStart(seconds: Int)
    case missingInput(String)

    var description: String {
        switch self {
        case .storeDidNotStart(let seconds): "ledgerly-store did not answer within \(seconds) s"
        case .missingInput(let reason): reason
        }
    }
}
