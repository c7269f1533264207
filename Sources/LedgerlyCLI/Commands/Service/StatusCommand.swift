import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol
import LedgerlyRuntime

/// `ledgerly status`: each service up or down, its version, the last event seq it has, its lag;
/// and each rate provider's health as the store last heard it (so it shows even while the rates
/// service is down).
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether each service is up, its version, last event seq and lag.",
        discussion: "Exits 0 when every service answers, 3 when any is down. A failing rate provider is shown with its error and next retry but does not change the exit status.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    /// `ledgerly status --json`: the home and one entry per service.
    struct StatusReport: Encodable {
        let home: String
        let services: [ServiceState]
        /// Empty when the store is down or no provider has reported yet.
        let providers: [RateProviderStatus]
        /// Sync as the store last heard it; nil when the store is down.
        let sync: SyncStatusReply?
        /// ledgerly-web's address when it runs (its `run/web.address` and a live pid); it is
        /// optional, so its absence does not change the exit status (D517).
        let web: String?
    }

    struct ServiceState: Encodable {
        let service: String
        let endpoint: String
        let up: Bool
        let version: String?
        let pid: Int32?
        let lastSeq: Int64?
        /// How many changes the service has not handled yet (subscribers only).
        let lag: Int64?
        let setupCompleted: Bool?
        let error: String?
    }

    func run() throws {
        try CommandRunner.run {
            let gateway = try Gateway(global)
            let home = gateway.home
            let targets = LedgerlyService.allCases
            let replies = targets.map { gateway.status(of: $0) }
            let storeSeq = try? replies[0].get().lastSeq
            let states = zip(targets, replies).map { target, result in
                switch result {
                case .success(let status):
                    let lag = target == .store ? nil : storeSeq.map { max(0, $0 - status.lastSeq) }
                    return ServiceState(service: target.name, endpoint: target.commandEndpoint(in: home), up: true, version: status.version, pid: status.pid, lastSeq: status.lastSeq, lag: lag, setupCompleted: status.setupCompleted, error: nil)
                case .failure(let error):
                    return ServiceState(service: target.name, endpoint: target.commandEndpoint(in: home), up: false, version: nil, pid: nil, lastSeq: nil, lag: nil, setupCompleted: nil, error: error.description)
                }
            }
            let providers = storeSeq == nil ? [] : (try? gateway.call(RateProviderListRequest()).providers) ?? []
            let sync = storeSeq == nil ? nil : try? gateway.call(SyncStatusRequest())
            let web = WebOpenCommand.runningAddress(home: home)
            if output.json {
                try JSONOutput.print(StatusReport(home: home.root.path, services: states, providers: providers, sync: sync, web: web))
            } else {
                let style = TerminalStyle.standardOutput
                var table = Table([.init("SERVICE"), .init("STATE"), .init("VERSION"), .init("PID", .right), .init("LAST SEQ", .right), .init("LAG", .right)])
                for state in states {
                    table.add([state.service, state.up ? "up" : "down", state.version ?? "-", state.pid.map(String.init) ?? "-",
                               state.lastSeq.map(String.init) ?? "-", state.lag.map(String.init) ?? "-"]) { column, text in
                        column == 1 ? (state.up ? style.green(text) : style.red(text)) : text
                    }
                }
                print("Ledgerly home: \(home.root.path)")
                print(table.render(), terminator: "")
                if !providers.isEmpty {
                    print("\nRate providers")
                    var health = Table([.init("PROVIDER"), .init("PROFILE"), .init("STATE"), .init("LAST SUCCESS"), .init("NEXT"), .init("LAST ERROR")])
                    for provider in providers {
                        var state = provider.lastError == nil ? "ok" : "failing (\(provider.consecutiveFailures)×)"
                        // A provider with a daily quota (Alpha Vantage) says how much of today's is used.
                        if let used = provider.requestsUsed, let quota = provider.requestQuota {
                            state += ", \(used)/\(quota) requests \(provider.quotaDay.map { "on \($0)" } ?? "today")"
                        }
                        health.add([provider.name, provider.profile, state, provider.lastSuccessAt ?? "never", provider.nextAttemptAt ?? "-", provider.lastError ?? ""]) { column, text in
                            column == 2 ? (provider.lastError == nil ? style.green(text) : style.red(text)) : text
                        }
                    }
                    print(health.render(), terminator: "")
                }
                if let sync {
                    var line = "\nSync: \(sync.state)"
                    if sync.state != "off" { line += " (last success \(sync.lastSuccess ?? "never"), \(sync.waitingOut) waiting to go out)" }
                    if sync.state == "error", let error = sync.lastError { line += ": \(error)" }
                    print(sync.state == "error" ? style.red(line) : line)
                }
                print(web.map { "\nWeb: \($0) (sign in with `ledgerly web open`)" } ?? "\nWeb: ledgerly-web is not running")
                if let store = states.first, store.up, store.setupCompleted == false {
                    print(style.yellow("Not set up yet: run `ledgerly setup`."))
                }
            }
            if states.contains(where: { !$0.up }) { throw ExitCode(ExitStatus.unavailable.rawValue) }
        }
    }
}
