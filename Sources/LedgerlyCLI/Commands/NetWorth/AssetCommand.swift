import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly asset add|list|show|revalue|edit|archive`: things owned outside wallets and
/// investment accounts, valued by hand (docs/networth.md).
struct AssetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asset", abstract: "Manual assets: a house, a car, a claim; valued by hand, counted in net worth.",
        discussion: """
            An asset's value at a day is its latest valuation on or before that day. A revaluation adds a dated value and \
            never overwrites one, so net worth on an earlier day stays what it was. Flags:
              --core      counted in core net worth (default: on unless volatile)
              --tangible  counted in tangible net worth (default: on for --type tangible)
              --volatile  its value swings: reported as volatile (default: off)
            Archiving hides an asset from lists; its value still counts. Revalue a sold asset to 0.
            Example: ledgerly asset add House --value 250000 --date 2026-01-15
                     ledgerly asset revalue House 262000 --date 2026-06-30
            """,
        subcommands: [Add.self, List.self, Show.self, Revalue.self, Edit.self, Archive.self], defaultSubcommand: List.self)

    static func summary(_ asset: ManualAssetRecord) -> String {
        "asset \(asset.id) '\(asset.name)' (\(asset.assetType.rawValue), \(asset.value) \(asset.currency) on \(asset.valuedOn)\(flags(asset))"
            + (asset.archived ? ", archived" : "") + ")"
    }

    /// The flags as words, only those that differ from plain: ", volatile, not in core".
    static func flags(_ asset: ManualAssetRecord) -> String {
        var words: [String] = []
        if asset.volatile { words.append("volatile") }
        if !asset.includeInCore { words.append("not in core") }
        if asset.includeInTangible != (asset.assetType == .tangible) { words.append(asset.includeInTangible ? "in tangible" : "not in tangible") }
        return words.map { ", " + $0 }.joined()
    }

    static func table(_ assets: [ManualAssetRecord]) -> String {
        var table = Table([.init("ID", .right), .init("NAME"), .init("TYPE"), .init("VALUE", .right), .init("CURRENCY"), .init("VALUED ON"),
                           .init("CORE"), .init("TANGIBLE"), .init("VOLATILE")])
        for asset in assets {
            table.add([String(asset.id), asset.name + (asset.archived ? " (archived)" : ""), asset.assetType.rawValue, asset.value, asset.currency, asset.valuedOn,
                       asset.includeInCore ? "yes" : "no", asset.includeInTangible ? "yes" : "no", asset.volatile ? "yes" : "no"])
        }
        return table.render()
    }

    static func details(_ asset: ManualAssetRecord) -> String {
        var list = DetailList()
        list.add("Asset", "\(asset.id) \(asset.name)")
        list.add("Type", asset.assetType.rawValue)
        list.add("Value", "\(asset.value) \(asset.currency) (since \(asset.valuedOn))")
        list.add("In core", asset.includeInCore ? "yes" : "no")
        list.add("In tangible", asset.includeInTangible ? "yes" : "no")
        list.add("Volatile", asset.volatile ? "yes" : "no")
        list.add("Notes", asset.notes)
        list.add("Archived", asset.archived ? "yes (still counted)" : "no")
        list.add("Created", asset.createdAt)
        list.add("Updated", asset.updatedAt)
        var text = list.render()
        guard let valuations = asset.valuations, !valuations.isEmpty else { return text }
        // The change from the valuation before, for reading only (DecimalText: exact decimals).
        var table = Table([.init("DATE"), .init("VALUE", .right), .init("CHANGE", .right), .init("NOTES"), .init("RECORDED")])
        var previous: String?
        for valuation in valuations {
            let change = previous.flatMap { DecimalText.difference(valuation.value, $0) }.map { $0.hasPrefix("-") ? $0 : "+" + $0 } ?? ""
            table.add([valuation.date, valuation.value, change, valuation.notes ?? "", valuation.createdAt])
            previous = valuation.value
        }
        text += "\nValuations (\(asset.currency)), oldest first; each holds until the next:\n" + table.render()
        return text
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a manual asset with its first valuation.",
            discussion: """
                It counts in net worth from --date (default today). Core and tangible default from --volatile and --type; \
                --core and --tangible set them outright.
                Example: ledgerly asset add House --value 250000 --date 2026-01-15
                         ledgerly asset add 'Art print' --value 1200 --type tangible --volatile
                         ledgerly asset add Claim --value 900 --currency USD --type intangible
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Its name (unique, any case).") var name: String
        @Option(parsing: .unconditional, help: "Its value, zero or more, in --currency (e.g. 250000 or 1200.50).", transform: AmountOptions.plain) var value: String
        @Option(help: "Its currency (default: the base currency).") var currency: String?
        @Option(help: "tangible or intangible (default tangible).") var type: ManualAssetType?
        @Option(parsing: .unconditional, help: "The day the value holds from, YYYY-MM-DD, today, yesterday, -3d, … (default today; not in the future).", transform: DayOptions.day) var date: String?
        @Flag(help: "Its value swings (art, collectibles): reported as volatile, left out of core by default.") var volatile = false
        @Option(help: "on or off: count it in core net worth (default: on unless --volatile).") var core: Switch?
        @Option(help: "on or off: count it in tangible net worth (default: on for --type tangible).") var tangible: Switch?
        @Option(help: "Notes.") var notes: String?

        var wording: FieldWording { AssetCommand.wording.adding(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> ManualAssetRecord {
            return try gateway.call(ManualAssetCreateRequest(
                name: name, assetType: type, value: value, currency: currency, valuedOn: date, volatile: volatile ? true : nil,
                includeInCore: core?.isOn, includeInTangible: tangible?.isOn, notes: notes))
        }

        func render(_ created: ManualAssetRecord, gateway: Gateway) throws {
            print("Added \(AssetCommand.summary(created)).")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List manual assets with their latest value.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Flag(name: .customLong("all"), help: "Include archived assets (they still count in net worth).") var includeArchived = false

        var wording: FieldWording { AssetCommand.wording }

        func reply(from gateway: Gateway) throws -> ManualAssetListReply {
            return try gateway.call(ManualAssetListRequest(includeArchived: includeArchived ? true : nil))
        }

        func render(_ reply: ManualAssetListReply, gateway: Gateway) throws {
            if reply.assets.isEmpty { return print("No manual assets yet. Add one: ledgerly asset add House --value 250000") }
            print(AssetCommand.table(reply.assets), terminator: "")
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one asset with every valuation.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Asset name or id.") var asset: String

        var wording: FieldWording { AssetCommand.wording.adding(["id": "<asset>"]) }

        func reply(from gateway: Gateway) throws -> ManualAssetRecord {
            return try gateway.call(ManualAssetGetRequest(id: try gateway.manualAsset(asset).id))
        }

        func render(_ found: ManualAssetRecord, gateway: Gateway) throws {
            print(AssetCommand.details(found), terminator: "")
        }
    }

    struct Revalue: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "revalue",
            abstract: "Record a new value from a day on (earlier values stay).",
            usage: "ledgerly asset revalue <asset> <value> [--date <date>] [--notes <notes>] [--json]",
            discussion: """
                A revaluation never overwrites: it adds a dated value, so net worth before --date does not change and \
                snapshots already taken stay as they were. A back-dated value counts from its day on.
                Example: ledgerly asset revalue House 262000 --date 2026-06-30
                         ledgerly asset revalue Car 0 --notes sold
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Asset name or id.") var asset: String
        /// One value; read as "everything left over" so that "-5" arrives here as a (refused)
        /// value instead of being taken for an unknown option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The new value, zero or more, in the asset's currency.", valueName: "value"), transform: AmountOptions.plain)
        var valueArguments: [String] = []
        @Option(parsing: .unconditional, help: "The day it holds from, YYYY-MM-DD, today, yesterday, -3d, … (default today; not in the future).", transform: DayOptions.day) var date: String?
        @Option(help: "Notes (where the figure comes from).") var notes: String?

        func validate() throws {
            try LoneValueArgument.check(valueArguments, name: "value")
        }

        var wording: FieldWording { AssetCommand.wording.adding(["id": "<asset>", "value": "<value>"]) }

        func reply(from gateway: Gateway) throws -> ManualAssetRecord {
            return try gateway.call(ManualAssetRevalueRequest(id: try gateway.manualAsset(asset).id, value: valueArguments[0], date: date, notes: notes))
        }

        func render(_ updated: ManualAssetRecord, gateway: Gateway) throws {
            print("Revalued \(AssetCommand.summary(updated)).")
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an asset's name, type, flags or notes (its value changes only by `asset revalue`).",
            discussion: """
                A change of flags counts for every day, past ones included, when net worth is computed again; snapshots \
                already taken stay as they were (`ledgerly report networth --recompute` shows the difference).
                Example: ledgerly asset edit 'Art print' --volatile off --core on
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Asset name or id.") var asset: String
        @Option(help: "New name.") var name: String?
        @Option(help: "tangible or intangible.") var type: ManualAssetType?
        @Option(help: "on or off: its value swings and is reported as volatile.") var volatile: Switch?
        @Option(help: "on or off: count it in core net worth.") var core: Switch?
        @Option(help: "on or off: count it in tangible net worth.") var tangible: Switch?
        @Option(help: "Notes (an empty string clears them).") var notes: String?

        func validate() throws {
            if name == nil && type == nil && volatile == nil && core == nil && tangible == nil && notes == nil {
                throw ValidationError("nothing to change: pass --name, --type, --volatile, --core, --tangible or --notes")
            }
        }

        var wording: FieldWording { AssetCommand.wording.adding(["id": "<asset>"]) }

        func reply(from gateway: Gateway) throws -> ManualAssetRecord {
            return try gateway.call(ManualAssetUpdateRequest(
                id: try gateway.manualAsset(asset).id, name: name, assetType: type, volatile: volatile?.isOn, includeInCore: core?.isOn,
                includeInTangible: tangible?.isOn, notes: notes))
        }

        func render(_ updated: ManualAssetRecord, gateway: Gateway) throws {
            print("Updated \(AssetCommand.summary(updated)).")
        }
    }

    struct Archive: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Archive an asset: hidden from lists; its value still counts (revalue it to 0 when it is sold).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Asset name or id.") var asset: String

        var wording: FieldWording { AssetCommand.wording.adding(["id": "<asset>"]) }

        func reply(from gateway: Gateway) throws -> ManualAssetRecord {
            return try gateway.call(ManualAssetArchiveRequest(id: try gateway.manualAsset(asset).id))
        }

        func render(_ archived: ManualAssetRecord, gateway: Gateway) throws {
            print("Archived asset '\(archived.name)'; its value (\(archived.value) \(archived.currency)) still counts in net worth.")
        }
    }
}

extension AssetCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["assetType": "--type", "valuedOn": "--date", "includeInCore": "--core", "includeInTangible": "--tangible"]
}
