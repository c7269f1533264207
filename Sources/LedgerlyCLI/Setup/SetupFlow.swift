import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// The interactive first-run flow: welcome and privacy, base currency, exchange mode, sync,
/// summary. Progress is saved in the store after every step, so quitting (q or Ctrl-D) and
/// running `ledgerly setup` again resumes where the user left off.
struct SetupFlow {
    enum Outcome {
        case completed(SettingsRecord)
        case paused(step: Int)
    }

    static let stepCount = 5

    let gateway: Gateway
    let console = Console()
    let localeCurrency: String
    /// The hub chosen at step 4, connected to once setup is complete.
    let pendingSync = PendingSyncConnection()

    func run(resumingFrom saved: OnboardingProgress?) throws -> Outcome {
        var progress = saved ?? OnboardingProgress(step: 1)
        if let saved, saved.step > 1 {
            console.say(console.style.bold("Resuming setup at step \(saved.step) of \(Self.stepCount).") + " Type b to go back, q to quit.")
        }
        while true {
            let next: Int?
            switch progress.step {
            case 1: next = welcome()
            case 2:
                next = chooseCurrency(&progress)
                if next == 3, let base = progress.baseCurrency { previewConversions(to: base, mode: progress.exchangeMode ?? .official) }
            case 3: next = chooseMode(&progress)
            case 4: next = chooseSync(&progress)
            default:
                switch try summary(progress) {
                case .finished(let settings):
                    connectSync()
                    return .completed(settings)
                case .goTo(let step): next = step
                case .quit: next = nil
                }
            }
            guard let next else { return pause(progress) }
            progress.step = next
            _ = try gateway.call(SetupSaveRequest(progress: progress))
        }
    }

    private func pause(_ progress: OnboardingProgress) -> Outcome {
        console.say()
        console.say("Setup paused at step \(progress.step) of \(Self.stepCount); your choices so far are saved. Run `ledgerly setup` to continue.")
        return .paused(step: progress.step)
    }

    private func header(_ step: Int, _ title: String) {
        console.say()
        console.say(console.style.bold("Step \(step) of \(Self.stepCount): \(title)"))
    }

    /// Returns the next step, or nil to quit.
    private func welcome() -> Int? {
        header(1, "Welcome to Ledgerly")
        console.say("Ledgerly keeps your wallets, spending and budgets in any number of currencies.")
        console.say(console.style.green("Privacy: ") + "your ledger stays on this machine, in \(gateway.home.root.path).")
        // True to the letter (D400): the rates service asks no provider before setup is complete.
        console.say("Nothing is sent anywhere during setup. Afterwards, only if you choose fetched rates (step 3), the rates")
        console.say("service asks the providers for the currencies you use and the securities you hold or watch; never amounts, names or notes.")
        guard let answer = console.ask("Press Enter to begin (q to quit): "), answer.lowercased() != "q" else { return nil }
        return 2
    }

    private func chooseCurrency(_ progress: inout OnboardingProgress) -> Int? {
        header(2, "Base currency")
        console.say("Totals, reports and budgets are shown in this currency. Wallets can still be in any currency.")
        var options = [localeCurrency, "USD", "EUR"].reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if let chosen = progress.baseCurrency, !options.contains(chosen) { options.insert(chosen, at: 0) }
        let initial = progress.baseCurrency ?? localeCurrency
        showOptions(options, note: [localeCurrency: "your locale"])
        while true {
            guard let answer = console.ask("Number, code or search text [\(initial)] (b back, q quit): ") else { return nil }
            switch answer.lowercased() {
            case "q": return nil
            case "b": return 1
            case "": progress.baseCurrency = initial; return 3
            default: break
            }
            if let index = Int(answer), options.indices.contains(index - 1) {
                progress.baseCurrency = options[index - 1]
                return 3
            }
            let upper = answer.uppercased()
            if CurrencyCatalog.entry(for: upper) != nil {
                progress.baseCurrency = upper
                return 3
            }
            let matches = CurrencyCatalog.search(answer).prefix(12).map(\.code)
            if !matches.isEmpty {
                options = Array(matches)
                console.say("Matches for '\(answer)':")
                showOptions(options, note: [:])
                continue
            }
            if (try? Currency(code: answer)) != nil {
                guard let confirm = console.ask("'\(upper)' is not an ISO 4217 code. Use it as a custom currency with 2 decimals? [y/N]: ") else { return nil }
                if confirm.lowercased().hasPrefix("y") {
                    progress.baseCurrency = upper
                    return 3
                }
                continue
            }
            console.say(console.style.red("'\(answer)' is not a currency: codes are letters only, up to \(Currency.maximumCodeLength)."))
        }
    }

    /// What the chosen base currency means in practice, when rates are already known: "100 USD =
    /// 89.51 EUR". Conversions are previews (not kept in the history); missing rates are skipped.
    private func previewConversions(to base: String, mode: ExchangeMode) {
        var lines: [String] = []
        var warning: String?
        for code in ["USD", "EUR", "GBP", "JPY"] where code != base && lines.count < 3 {
            guard let converted = try? gateway.call(ConvertRequest(amount: "100", from: code, to: base, mode: mode, preview: true)) else { continue }
            lines.append("100 \(code) = \(converted.result) \(base)  (\(converted.snapshot.source), \(converted.snapshot.asOf.prefix(10)))")
            warning = warning ?? converted.warning
        }
        guard !lines.isEmpty else {
            console.say("No \(mode.rawValue) exchange rates are known yet; nothing is fetched before setup is complete.")
            return
        }
        console.say("With the \(mode.rawValue) rates known now:")
        for line in lines { console.say("  " + line) }
        if let warning { console.say(console.style.yellow("  (\(warning))")) }
    }

    private func showOptions(_ codes: [String], note: [String: String]) {
        for (index, code) in codes.enumerated() {
            let name = CurrencyCatalog.entry(for: code)?.name ?? "custom currency"
            let extra = note[code].map { "  (\($0))" } ?? ""
            console.say("  \(index + 1)) \(code.padded(toLength: 5)) \(name)\(extra)")
        }
    }

    private func chooseMode(_ progress: inout OnboardingProgress) -> Int? {
        header(3, "Exchange rates")
        console.say("How should amounts in other currencies be converted to \(progress.baseCurrency ?? "your base currency")?")
        for (index, mode) in ExchangeMode.allCases.enumerated() {
            console.say("  \(index + 1)) \(console.style.bold(mode.rawValue.capitalized))")
            console.say("     What: \(mode.summary)")
            console.say("     When: \(mode.whenToUse)")
        }
        let current = progress.exchangeMode ?? .official
        let defaultIndex = (ExchangeMode.allCases.firstIndex(of: current) ?? 0) + 1
        while true {
            guard let answer = console.ask("Choose 1-3 [\(defaultIndex)] (b back, q quit): ") else { return nil }
            switch answer.lowercased() {
            case "q": return nil
            case "b": return 2
            case "": progress.exchangeMode = current; return 4
            default: break
            }
            if let index = Int(answer), (1...3).contains(index) {
                progress.exchangeMode = ExchangeMode.allCases[index - 1]
                return 4
            }
            if let mode = ExchangeMode(rawValue: answer.lowercased()) {
                progress.exchangeMode = mode
                return 4
            }
            console.say(console.style.red("Please type 1, 2 or 3."))
        }
    }

    private func chooseSync(_ progress: inout OnboardingProgress) -> Int? {
        header(4, "Sync (off by default)")
        console.say("  + Benefits: the same ledger on your other devices, through a PostgreSQL server you control")
        console.say("    (at home, a VPS, a managed one). Everything on it is encrypted with a passphrase only your")
        console.say("    devices know: whoever runs the server sees no amount, name or note. Nothing waits for it.")
        console.say("  - Caveats: you need such a server. Fetched rates and prices stay each device's own.")
        console.say("    A lost passphrase cannot be recovered.")
        let current = progress.cloudSync ?? false
        while true {
            guard let answer = console.ask("Turn sync on? [\(current ? "Y/n" : "y/N")] (b back, q quit): ") else { return nil }
            switch answer.lowercased() {
            case "q": return nil
            case "b": return 3
            case "": progress.cloudSync = current
            case "y", "yes": progress.cloudSync = true
            case "n", "no": progress.cloudSync = false
            default:
                console.say(console.style.red("Please answer y or n."))
                continue
            }
            guard progress.cloudSync == true else { return 5 }
            // The address, password and passphrase are kept in memory only, never in the saved
            // progress. The password is asked apart from the address, as `sync enable` does (D431).
            guard let url = askHubAddress() else { return nil }
            guard let passphrase = try? PassphraseInput.ask("Sync passphrase (every device needs the same one): "), !passphrase.isEmpty else {
                console.say(console.style.red("No passphrase: sync stays off for now; `ledgerly sync enable` turns it on later."))
                progress.cloudSync = false
                return 5
            }
            pendingSync.url = url
            pendingSync.passphrase = passphrase
            return 5
        }
    }

    /// The hub's address, and its user's password by `HubPasswordInput`'s rules (a libpq password
    /// file, else a prompt without echo); an address with a password in it is asked again.
    private func askHubAddress() -> String? {
        while true {
            guard let typed = console.ask("Hub address (postgres://user@host:5432/database; TLS with the certificate verified, unless ?sslmode=disable): "),
                !typed.isEmpty
            else { return nil }
            do {
                return try HubPasswordInput.url(typed, passwordFile: nil)
            } catch let failure as CLIFailure {
                console.say(console.style.red(failure.message))
                if let hint = failure.hint { console.say(hint) }
            } catch {
                console.say(console.style.red("\(error)"))
                return nil
            }
        }
    }

    /// After setup: connects to the hub chosen at step 4. A failure leaves setup done and says how
    /// to try again; sync is never a reason for setup to fail.
    func connectSync() {
        guard let url = pendingSync.url, let passphrase = pendingSync.passphrase else { return }
        console.say("Connecting to the sync hub…")
        do {
            let status = try gateway.callSync(SyncConnectRequest(url: url, passphrase: passphrase), patientMilliseconds: 120_000)
            console.say(console.style.green("Sync is on") + ": ledger \(status.ledgerId ?? "-") on \(status.hub ?? "-"). `ledgerly sync status` shows how far it is.")
        } catch {
            console.say(console.style.red("Sync is not on: \(error)"))
            console.say("Try again later with: ledgerly sync enable --url URL")
        }
    }

    /// What the user chose at the summary.
    private enum SummaryChoice {
        case finished(SettingsRecord)
        case goTo(Int)
        case quit
    }

    /// Completes setup on confirmation, or goes back to a step to change it.
    private func summary(_ progress: OnboardingProgress) throws -> SummaryChoice {
        header(5, "Summary")
        let currency = progress.baseCurrency ?? localeCurrency
        let mode = progress.exchangeMode ?? .official
        let sync = progress.cloudSync ?? false
        console.say("  Base currency: \(currency) (\(CurrencyCatalog.entry(for: currency)?.name ?? "custom currency"))")
        console.say("  Exchange mode: \(mode.rawValue): \(mode.summary)")
        console.say("  Sync:          \(sync ? "on" : "off")")
        console.say("  Data:          \(gateway.home.root.path)")
        while true {
            guard let answer = console.ask("Save and finish? [Y/n: change something] (b back, q quit): ") else { return .quit }
            switch answer.lowercased() {
            case "q": return .quit
            case "b": return .goTo(4)
            case "n", "no": return .goTo(2)
            case "", "y", "yes":
                return .finished(try gateway.call(SetupCompleteRequest(baseCurrency: currency, exchangeMode: mode, cloudSync: sync)))
            default:
                console.say(console.style.red("Please answer y or n."))
            }
        }
    }
}

/// The sync hub address and passphrase typed at step 4, held for the end of setup.
final class PendingSyncConnection {
    var url: String?
    var passphrase: String?
}
