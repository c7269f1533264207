import ArgumentParser
import LedgerlyRuntime

/// `ledgerly-web`: parse, build the services, run. Run by its executable and by the multi-call
/// ledgerly-services (D504).
public struct WebCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: WebService.name,
        abstract: "serves Ledgerly's pages to a browser; talks to the store over its protocol, like the CLI.",
        discussion: "On a loopback address (the default) it serves plain HTTP to this computer: sign in with the link `ledgerly web open` prints. On any other address (0.0.0.0 for the home network) it serves HTTPS only, with a self-signed certificate made on the first start and kept in the home's web/ folder; phones pair with the code `ledgerly web pair` prints (docs/web.md). SIGTERM or SIGINT shuts down gracefully. Exit codes: 0 stopped, 1 failed, 64 bad arguments.",
        version: "\(WebService.name) \(LedgerlyVersion.current)")

    @OptionGroup var options: ServiceOptions

    @Option(name: .long, help: ArgumentHelp("HOST:PORT to listen on: loopback for HTTP to this computer, any other address (0.0.0.0) for HTTPS to the home network (default: web.json's listen, else 127.0.0.1:\(WebListenAddress.defaultPort))", valueName: "address"))
    var listen: String?

    public init() {}

    public func validate() throws {
        if let listen {
            do { _ = try WebListenAddress(parsing: listen) } catch { throw ValidationError("--listen: \(error)") }
        }
    }

    public func run() async throws {
        let logger = LoggingSetup.bootstrap(service: WebService.name)
        let home = WebLauncher.prepared(options.ledgerlyHome, logger: logger)
        let web: WebService
        do {
            let address = try listen.map { try WebListenAddress(parsing: $0) } ?? WebConfiguration.listenAddress(home: home)
            web = try WebService(home: home, listen: address, clock: options.clock, logger: logger)
        } catch {
            Self.fail("\(error)")
        }
        // ledgerly-web is not one of the ledger's four `LedgerlyService`s (D510): it runs its
        // group with its own launcher.
        await WebLauncher.run(web, home: home, logger: logger)
    }

    static func fail(_ message: String) -> Never {
        WebLauncher.fail(message)
    }
}
