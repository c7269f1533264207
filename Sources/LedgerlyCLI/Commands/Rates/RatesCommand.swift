import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly rates list|set|history|refresh|end-override` and `ledgerly rates profile add|list|use`
struct RatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates", abstract: "Exchange rates: see them, set your own, keep several series (profiles).",
        subcommands: [List.self, Set.self, History.self, Refresh.self, EndOverride.self, Profile.self])

    /// A profile given by id or name, or nil for the active one.
    static func profileId(_ reference: String?, gateway: Gateway) throws -> Int64? {
        guard let reference else { return nil }
        return try profileId(of: reference, gateway: gateway)
    }

    /// A profile's id, given by id or name; an unknown one is refused naming `--profile`.
    static func profileId(of reference: String, gateway: Gateway) throws -> Int64 {
        let profiles = try gateway.call(RateProfileListRequest()).profiles
        if let id = Int64(reference), profiles.contains(where: { $0.id == id }) { return id }
        if let match = profiles.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match.id }
        throw CLIFailure(message: "--profile: no rate profile '\(reference)' (profiles: \(profiles.map(\.name).joined(separator: ", ")))", status: .refused)
    }

    static func age(_ seconds: Int64?) -> String {
        seconds.map { StalenessPolicy.describe(.seconds($0)) } ?? "-"
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "The newest rate of every pair in a profile; stale ones are marked.",
            discussion: "AGE is now minus the rate's own AS OF (a reference rate's date, a drop-folder line's date, the moment you typed it), never when it was fetched; over the staleness limit (settings) it is marked stale. docs/rates.md explains a daily reference rate's weekend gap.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Profile id or name (default: the active one).") var profile: String?

        var wording: FieldWording { RatesCommand.wording }

        func reply(from gateway: Gateway) throws -> RateListReply {
            return try gateway.call(RateListRequest(profileId: try RatesCommand.profileId(profile, gateway: gateway)))
        }

        func render(_ reply: RateListReply, gateway: Gateway) throws {
            print("Profile \(reply.profile.name) (\(reply.profile.type.rawValue))")
            if reply.rates.isEmpty { return print("No rates yet. Set one: ledgerly rates set USD EUR 0.8951") }
            let style = TerminalStyle.standardOutput
            var table = Table([.init("PAIR"), .init("RATE", .right), .init("INVERSE", .right), .init("SOURCE"), .init("AS OF"), .init("AGE", .right), .init("")])
            // AGE counts from AS OF, the rate's own moment, whenever it was fetched (D401).
            for rate in reply.rates {
                let flag = rate.stale == true ? "stale" : ""
                table.add(["\(rate.base)/\(rate.quote)", rate.rate, rate.inverseRate, rate.source + (rate.customOverride ? " (override)" : ""), rate.asOf,
                           RatesCommand.age(rate.ageSeconds), flag]) { column, text in column == 6 ? style.yellow(text) : text }
            }
            print(table.render(), terminator: "")
        }
    }

    struct Set: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a rate by hand: how many QUOTE one BASE is worth.",
            usage: "ledgerly rates set <base> <quote> <rate> [--profile <profile>] [--at <at>] [--override] [--json]",
            discussion: "Example (parallel-market dollar): ledgerly rates set USD ARS 1185.50 --profile parallel")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Base currency (one unit of it).") var base: String
        @Argument(help: "Quote currency.") var quote: String
        /// One value; read as "everything left over" so that "-1" arrives here as a (refused)
        /// rate instead of being taken for an unknown option.
        @Argument(parsing: .allUnrecognized,
                  help: ArgumentHelp("Units of QUOTE per one BASE, a positive decimal (\(ExchangeRate.rangeDescription)), read as every amount is (1,185.50).", valueName: "rate"),
                  transform: AmountOptions.decimal)
        var rateArguments: [String] = []
        @Option(help: "Profile id or name (default: the active one).") var profile: String?
        @Option(help: "When the rate applies: YYYY-MM-DD or an ISO 8601 time such as 2026-10-30T15:00:00Z (default: now).") var at: String?
        @Flag(help: "Take precedence over fetched rates for this pair (either direction) until `ledgerly rates end-override`.") var override = false

        var rate: String { rateArguments.first ?? "" }

        func validate() throws {
            let rate = try LoneValueArgument.check(rateArguments, name: "rate")
            try RateArgument.check(rate, name: "<rate>")
        }

        var wording: FieldWording { RatesCommand.wording.adding(["base": "<base>", "quote": "<quote>", "rate": "<rate>"]) }

        func reply(from gateway: Gateway) throws -> RateSetReply {
            return try gateway.call(RateSetRequest(
                base: base, quote: quote, rate: rate, profileId: try RatesCommand.profileId(profile, gateway: gateway),
                asOf: at, customOverride: override ? true : nil))
        }

        func render(_ reply: RateSetReply, gateway: Gateway) throws {
            print("Set \(reply.rate.base)/\(reply.rate.quote) = \(reply.rate.rate) (inverse \(reply.rate.inverseRate)) as of \(reply.rate.asOf).")
            if let warning = reply.warning { CommandOutput.current.writeError(TerminalStyle.standardError.yellow("warning: ") + warning + "\n") }
        }
    }

    struct History: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Every stored rate of one pair, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Base currency.") var base: String
        @Argument(help: "Quote currency.") var quote: String
        @Option(help: "Profile id or name (default: the active one).") var profile: String?
        @Option(help: "At most this many.") var limit = 30

        var wording: FieldWording { RatesCommand.wording.adding(["base": "<base>", "quote": "<quote>"]) }

        func reply(from gateway: Gateway) throws -> RateHistoryReply {
            return try gateway.call(RateHistoryRequest(base: base, quote: quote, profileId: try RatesCommand.profileId(profile, gateway: gateway), limit: limit))
        }

        func render(_ reply: RateHistoryReply, gateway: Gateway) throws {
            if reply.rates.isEmpty { return print("No \(base.uppercased())/\(quote.uppercased()) rates in this profile.") }
            var table = Table([.init("AS OF"), .init("RATE", .right), .init("SOURCE"), .init("KIND")])
            for rate in reply.rates { table.add([rate.asOf, rate.rate, rate.source, rate.confidence.rawValue]) }
            print(table.render(), terminator: "")
        }
    }

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh",
            abstract: "Fetch rates from the configured providers now (asks ledgerly-rates).",
            discussion: """
                Providers are configured in <config>/rates.json; without it, the ECB's daily reference rates feed the official profile. \
                CORRECTED counts rates a provider changed for a moment already stored (kept beside the first, newest first in `rates history`). \
                Exits 1 when a provider failed. Nothing is fetched before setup is complete (exit 2) or in the manual exchange mode (exit 1): it says so.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            try CommandRunner.run {
                let reply = try Gateway(global, wording: RatesCommand.wording).refreshRates()
                // Nothing asked (before setup, manual mode, D400): said plainly, and not a success.
                if let reason = reply.notFetched {
                    let status: ExitStatus = reason.hasPrefix("setup is not complete") ? .setupRequired : .refused
                    if output.json {
                        try JSONOutput.print(reply)
                        throw ExitCode(status.rawValue)
                    }
                    throw CLIFailure(message: "nothing was fetched: \(reason)", status: status)
                }
                if output.json { return try JSONOutput.print(reply) }
                let style = TerminalStyle.standardOutput
                var table = Table([.init("PROVIDER"), .init("PROFILE"), .init("NEW", .right), .init("CORRECTED", .right), .init("CONFIRMED", .right), .init("RESULT"), .init("NEXT")])
                for provider in reply.providers {
                    let next = provider.nextAttemptAt.map { provider.error == nil ? $0 : "retry \($0)" } ?? "-"
                    table.add([provider.name, provider.profile, String(provider.stored), String(provider.corrected), String(provider.confirmed), provider.error ?? "ok", next]) { column, text in
                        column == 5 ? (provider.error == nil ? style.green(text) : style.red(text)) : text
                    }
                }
                print(table.render(), terminator: "")
                if reply.providers.contains(where: { $0.error != nil }) { throw ExitCode(ExitStatus.refused.rawValue) }
            }
        }
    }

    struct EndOverride: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-override",
            abstract: "Stop using your override for a pair: the feed's rates apply again from now on.",
            discussion: "Conversions and transactions made while the override was in force keep it. Example: ledgerly rates end-override USD ARS --profile parallel")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Base currency.") var base: String
        @Argument(help: "Quote currency (the override is ended in both directions).") var quote: String
        @Option(help: "Profile id or name (default: the active one).") var profile: String?

        var wording: FieldWording { RatesCommand.wording.adding(["base": "<base>", "quote": "<quote>"]) }

        func reply(from gateway: Gateway) throws -> RateOverrideEndReply {
            return try gateway.call(RateOverrideEndRequest(base: base, quote: quote, profileId: try RatesCommand.profileId(profile, gateway: gateway)))
        }

        func render(_ reply: RateOverrideEndReply, gateway: Gateway) throws {
            for rate in reply.ended {
                print("Ended the override \(rate.base)/\(rate.quote) = \(rate.rate) (set \(rate.asOf)); fetched rates apply again.")
            }
        }
    }

    struct Profile: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "profile",
            abstract: "Rate profiles: named series (official feed, parallel market, your own).",
            subcommands: [Add.self, List.self, Use.self])

        struct Add: ReplyCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a profile.")
            @OptionGroup var global: GlobalOptions
            @OptionGroup var output: OutputOptions
            @Argument(help: "Its name.") var name: String
            @Option(help: "official, parallel or manual.") var type: ExchangeMode
            @Option(help: "Where its rates come from (ecb, frankfurter, dropfolder, manual).") var source: String?
            @Option(help: "Free text.") var notes: String?

            var wording: FieldWording { RatesCommand.wording.adding(["name": "<name>"]) }

            func reply(from gateway: Gateway) throws -> RateProfileRecord {
                return try gateway.call(RateProfileCreateRequest(name: name, type: type, primarySource: source, notes: notes))
            }

            func render(_ created: RateProfileRecord, gateway: Gateway) throws {
                print("Added \(created.type.rawValue) rate profile \(created.id) '\(created.name)'. Make it the one in use: ledgerly rates profile use \(created.name)")
            }
        }

        struct List: ReplyCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List profiles; * marks each mode's default.")
            @OptionGroup var global: GlobalOptions
            @OptionGroup var output: OutputOptions

            var wording: FieldWording { RatesCommand.wording.adding(["id": "<profile>"]) }

            func reply(from gateway: Gateway) throws -> RateProfileListReply {
                return try gateway.call(RateProfileListRequest())
            }

            func render(_ reply: RateProfileListReply, gateway: Gateway) throws {
                let mode = try gateway.call(SettingsGetRequest()).exchangeMode
                var table = Table([.init("ID", .right), .init("NAME"), .init("TYPE"), .init("SOURCE"), .init("UPDATED"), .init("")])
                for profile in reply.profiles {
                    let mark = profile.isDefault ? (profile.type == mode ? "* in use" : "*") : ""
                    table.add([String(profile.id), profile.name, profile.type.rawValue, profile.primarySource ?? "", profile.lastUpdated ?? "never", mark])
                }
                print(table.render(), terminator: "")
            }
        }

        struct Use: ReplyCommand {
            static let configuration = CommandConfiguration(commandName: "use", abstract: "Use a profile: it becomes its type's default and the exchange mode follows.")
            @OptionGroup var global: GlobalOptions
            @OptionGroup var output: OutputOptions
            @Argument(help: "Profile id or name.") var profile: String

            var wording: FieldWording { RatesCommand.wording }

            func reply(from gateway: Gateway) throws -> RateProfileRecord {
                try gateway.call(RateProfileUseRequest(id: try RatesCommand.profileId(of: profile, gateway: gateway)))
            }

            func render(_ used: RateProfileRecord, gateway: Gateway) throws {
                print("Using rate profile '\(used.name)' (exchange mode \(used.type.rawValue)).")
            }
        }
    }
}

extension RatesCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["asOf": "--at", "profileId": "--profile", "customOverride": "--override"]
}
