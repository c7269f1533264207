import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly setup`: the first-run flow. Interactive on a terminal; with `--yes` (or options and
/// no terminal) it runs without questions, for scripts.
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Set Ledgerly up: base currency, exchange mode, sync.",
        discussion: """
            On a terminal it asks step by step; quit at any step with q and run it again to resume.
            Without questions: ledgerly setup --base-currency EUR --exchange-mode official --sync off --yes
            Defaults: the currency of your locale (LC_ALL / LANG) or USD, official rates, sync off.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .customLong("base-currency"), help: "ISO 4217 code, or a custom code of letters (up to 20).") var baseCurrency: String?
    @Option(name: .customLong("exchange-mode"), help: "official, parallel or manual.") var exchangeMode: ExchangeMode?
    @Option(help: "on or off (default off).") var sync: Switch?
    @Flag(name: .shortAndLong, help: "Do not ask; use the options given and defaults for the rest.") var yes = false

    func validate() throws {
        if let baseCurrency {
            do { _ = try Currency(code: baseCurrency) } catch { throw ValidationError("--base-currency: \(error.description)") }
        }
    }

    func run() throws {
        try CommandRunner.run {
            let gateway = try Gateway(global, wording: SetupCommand.wording)
            let settings = try gateway.call(SettingsGetRequest())
            if settings.onboardingCompleted {
                // Options that ask for something else than what is set are refused, never
                // dropped with exit 0 (a script would believe its base currency was taken).
                var differing: [String] = []
                if let baseCurrency, baseCurrency.uppercased() != settings.baseCurrency?.uppercased() { differing.append("--base-currency \(baseCurrency) (it is \(settings.baseCurrency ?? "unset"))") }
                if let exchangeMode, exchangeMode != settings.exchangeMode { differing.append("--exchange-mode \(exchangeMode.rawValue) (it is \(settings.exchangeMode.rawValue))") }
                if let sync, sync.isOn != settings.cloudSync { differing.append("--sync \(sync.isOn ? "on" : "off") (it is \(settings.cloudSync ? "on" : "off"))") }
                if !differing.isEmpty {
                    throw CLIFailure(message: "Ledgerly is already set up; setup changes nothing, so \(differing.joined(separator: ", ")) was not applied", status: .refused,
                                     hint: "change settings with `ledgerly settings set` (the base currency cannot change once transactions exist)")
                }
                if output.json { return try JSONOutput.print(settings) }
                print("Ledgerly is already set up: base currency \(settings.baseCurrency ?? "?"), \(settings.exchangeMode.rawValue) rates, sync \(settings.cloudSync ? "on" : "off").")
                print("Change these with `ledgerly settings set`.")
                return
            }
            let saved = settings.onboardingProgress
            let localeCurrency = LocaleCurrency.guess()
            if yes {
                let completed = try gateway.call(SetupCompleteRequest(
                    baseCurrency: baseCurrency ?? saved?.baseCurrency ?? localeCurrency,
                    exchangeMode: exchangeMode ?? saved?.exchangeMode ?? .official,
                    cloudSync: sync?.isOn ?? saved?.cloudSync ?? false))
                return try report(completed, gateway: gateway)
            }
            guard Console.isInteractive else {
                throw CLIFailure(message: "standard input is not a terminal, so setup cannot ask questions", status: .usage,
                                 hint: "Run: ledgerly setup --base-currency \(baseCurrency ?? localeCurrency) --exchange-mode official --sync off --yes")
            }
            var start = saved
            if baseCurrency != nil || exchangeMode != nil || sync != nil {
                start = OnboardingProgress(step: saved?.step ?? 1, baseCurrency: baseCurrency ?? saved?.baseCurrency,
                                           exchangeMode: exchangeMode ?? saved?.exchangeMode, cloudSync: sync?.isOn ?? saved?.cloudSync)
            }
            let flow = SetupFlow(gateway: gateway, localeCurrency: localeCurrency)
            switch try flow.run(resumingFrom: start) {
            case .completed(let completed): try report(completed, gateway: gateway)
            case .paused(let step):
                // `q` pauses on purpose (exit 0); input that ends (Ctrl-D, a script's last line)
                // leaves setup unfinished, which a script must see.
                if flow.console.reachedEndOfInput {
                    throw CLIFailure(message: "setup is not finished: input ended at step \(step) (choices so far are saved)", status: .setupRequired,
                                     hint: "run `ledgerly setup` again to continue, or `ledgerly setup --yes` with options")
                }
            }
        }
    }

    private func report(_ settings: SettingsRecord, gateway: Gateway) throws {
        if output.json { return try JSONOutput.print(settings) }
        let style = TerminalStyle.standardOutput
        print(style.green("Ledgerly is set up") + ": base currency \(settings.baseCurrency ?? "?"), \(settings.exchangeMode.rawValue) rates, sync \(settings.cloudSync ? "on" : "off").")
        print("Next: ledgerly wallet add Checking --currency \(settings.baseCurrency ?? "EUR") --starting-balance 0")
    }
}

extension SetupCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["cloudSync": "--sync"]
}
