import ArgumentParser
import LedgerlyAlerts

/// `ledgerly-alerts`: its command lives in LedgerlyAlerts, which the multi-call ledgerly-services links too (D504).
@main
enum AlertsMain {
    static func main() async { await AlertsCommand.main() }
}
