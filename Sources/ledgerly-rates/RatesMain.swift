import ArgumentParser
import LedgerlyRates

/// `ledgerly-rates`: its command lives in LedgerlyRates, which the multi-call ledgerly-services links too (D504).
@main
enum RatesMain {
    static func main() async { await RatesCommand.main() }
}
