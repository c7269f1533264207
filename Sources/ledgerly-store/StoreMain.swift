import ArgumentParser
import LedgerlyStore

/// `ledgerly-store`: its command lives in LedgerlyStore, which the multi-call ledgerly-services links too (D504).
@main
enum StoreMain {
    static func main() async { await StoreCommand.main() }
}
