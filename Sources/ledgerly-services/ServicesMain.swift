import ArgumentParser
import Glibc
import LedgerlyAlerts
import LedgerlyRates
import LedgerlyStore
import LedgerlySync
import LedgerlyWeb

/// `ledgerly-services`: the four services and ledgerly-web in one binary, so that an installed Ledgerly carries one
/// copy of Foundation and ICU's data instead of four (D504). `make install` links ledgerly-store,
/// ledgerly-rates, ledgerly-alerts, ledgerly-sync and ledgerly-web to it; the name it is started as picks the
/// service (argv[0], which the services' restart on SIGHUP keeps). A new service: one more case.
@main
enum ServicesMain {
    static func main() async {
        let name = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
        switch name {
        case "ledgerly-store": await StoreCommand.main()
        case "ledgerly-rates": await RatesCommand.main()
        case "ledgerly-alerts": await AlertsCommand.main()
        case "ledgerly-sync": await SyncCommand.main()
        case "ledgerly-web": await WebCommand.main()
        default:
            let message = "ledgerly-services: start it as ledgerly-store, ledgerly-rates, ledgerly-alerts, ledgerly-sync or ledgerly-web (a link of that name to it), not as '\(name)'\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(64)
        }
    }
}
