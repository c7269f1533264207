import ArgumentParser
import LedgerlyWeb

/// `ledgerly-web`: its command lives in LedgerlyWeb, which the multi-call ledgerly-services links too (D504).
@main
enum WebMain {
    static func main() async { await WebCommand.main() }
}
