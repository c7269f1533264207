import ArgumentParser
import LedgerlySync

/// `ledgerly-sync`: its command lives in LedgerlySync, which the multi-call ledgerly-services links too (D504).
@main
enum SyncMain {
    static func main() async { await SyncCommand.main() }
}
