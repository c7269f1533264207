import ArgumentParser
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly wallet add|list|show|edit|archive`
struct WalletCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet", abstract: "Manage wallets: accounts, cash, cards, each in one currency.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Archive.self])

    static func table(_ wallets: [WalletRecord]) -> String {
        let style = TerminalStyle.standardOutput
        var table = Table([.init("ID", .right), .init("NAME"), .init("TYPE"), .init("CURRENCY"), .init("BALANCE", .right), .init("INSTITUTION")])
        for wallet in wallets {
            table.add([String(wallet.id), wallet.name + (wallet.archived ? " (archived)" : ""), wallet.type.rawValue, wallet.currency, wallet.balance, wallet.institution ?? ""]) { column, text in
                column == 4 ? style.amount(text) : text
            }
        }
        return table.render()
    }

    static func details(_ wallet: WalletRecord) -> String {
        var list = DetailList()
        list.add("Wallet", "\(wallet.id) \(wallet.name)")
        list.add("Type", wallet.type.rawValue)
        list.add("Currency", wallet.currency)
        list.add("Balance", "\(wallet.balance) \(wallet.currency)")
        list.add("Starting balance", "\(wallet.startingBalance) \(wallet.currency)")
        list.add("Institution", wallet.institution)
        list.add("Icon", wallet.icon)
        list.add("In net worth", wallet.includeInNetWorth ? "yes" : "no")
        list.add("Archived", wallet.archived ? "yes" : "no")
        list.add("Sort order", String(wallet.sortOrder))
        list.add("Created", wallet.createdAt)
        list.add("Updated", wallet.updatedAt)
        return list.render()
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a wallet.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The wallet's name (unique).") var name: String
        @Option(help: "ISO 4217 code (EUR, JPY) or a custom code of letters.") var currency: String
        @Option(help: "salary, cash, bank, freelance or custom.") var type: WalletType = .bank
        @Option(name: .customLong("starting-balance"), parsing: .unconditional, help: "Balance before the first transaction, e.g. 1200.50 or 1,200.50.", transform: AmountOptions.plain) var startingBalance: String = "0"
        @Option(help: "Bank or provider.") var institution: String?
        @Option(help: "An emoji or short icon name.") var icon: String?
        @Option(name: .customLong("sort-order"), help: "Position in lists (lower first).") var sortOrder: Int?
        @Flag(name: .customLong("exclude-from-net-worth"), help: "Leave this wallet out of net worth.") var excludeFromNetWorth = false

        var wording: FieldWording { WalletCommand.wording.adding(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> WalletRecord {
            return try gateway.call(WalletCreateRequest(
                name: name, currency: currency, type: type, icon: icon, startingBalance: startingBalance,
                institution: institution, sortOrder: sortOrder, includeInNetWorth: !excludeFromNetWorth))
        }

        func render(_ wallet: WalletRecord, gateway: Gateway) throws {
            print("Added wallet \(wallet.id) '\(wallet.name)' (\(wallet.currency)), balance \(wallet.balance) \(wallet.currency).")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List wallets with their balances.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Flag(name: .customLong("all"), help: "Include archived wallets.") var includeArchived = false

        var wording: FieldWording { WalletCommand.wording }

        func reply(from gateway: Gateway) throws -> WalletListReply {
            return try gateway.call(WalletListRequest(includeArchived: includeArchived))
        }

        func render(_ reply: WalletListReply, gateway: Gateway) throws {
            if reply.wallets.isEmpty { return print("No wallets yet. Add one: ledgerly wallet add Checking --currency EUR") }
            print(WalletCommand.table(reply.wallets), terminator: "")
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one wallet.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Wallet id or name.") var wallet: String

        var wording: FieldWording { WalletCommand.wording.adding(["id": "<wallet>"]) }

        func reply(from gateway: Gateway) throws -> WalletRecord {
            try gateway.wallet(wallet, field: "wallet")
        }

        func render(_ found: WalletRecord, gateway: Gateway) throws {
            print(WalletCommand.details(found), terminator: "")
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a wallet (its currency cannot change).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Wallet id or name.") var wallet: String
        @Option(help: "New name.") var name: String?
        @Option(help: "salary, cash, bank, freelance or custom.") var type: WalletType?
        @Option(name: .customLong("starting-balance"), parsing: .unconditional, help: "New starting balance (the balance moves by the difference).", transform: AmountOptions.plain) var startingBalance: String?
        @Option(help: "Bank or provider.") var institution: String?
        @Option(help: "An emoji or short icon name.") var icon: String?
        @Option(name: .customLong("sort-order"), help: "Position in lists.") var sortOrder: Int?
        @Option(name: .customLong("net-worth"), help: "on or off: count this wallet in net worth.") var netWorth: Switch?

        var wording: FieldWording { WalletCommand.wording.adding(["id": "<wallet>"]) }

        func reply(from gateway: Gateway) throws -> WalletRecord {
            let target = try gateway.wallet(wallet, field: "wallet")
            return try gateway.call(WalletUpdateRequest(
                id: target.id, name: name, type: type, icon: icon, startingBalance: startingBalance,
                institution: institution, sortOrder: sortOrder, includeInNetWorth: netWorth?.isOn))
        }

        func render(_ updated: WalletRecord, gateway: Gateway) throws {
            print(WalletCommand.details(updated), terminator: "")
        }
    }

    struct Archive: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "archive", abstract: "Archive a wallet (hide it; keep its history).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Wallet id or name.") var wallet: String
        @Flag(help: "Un-archive instead.") var undo = false

        var wording: FieldWording { WalletCommand.wording.adding(["id": "<wallet>"]) }

        func reply(from gateway: Gateway) throws -> WalletRecord {
            let target = try gateway.wallet(wallet, field: "wallet")
            return try gateway.call(WalletArchiveRequest(id: target.id, archived: !undo))
        }

        func render(_ updated: WalletRecord, gateway: Gateway) throws {
            print(undo ? "Wallet '\(updated.name)' is active again." : "Archived wallet '\(updated.name)'.")
        }
    }
}

extension WalletCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["includeInNetWorth": "--net-worth"]
}
