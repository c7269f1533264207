import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly invest account add|list|edit|archive`
struct InvestAccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Investment accounts: a broker, a pension, an exchange; each counts in one base currency.",
        subcommands: [Add.self, List.self, Edit.self, Archive.self], defaultSubcommand: List.self)

    static func summary(_ account: InvestAccountRecord) -> String {
        "account \(account.id) '\(account.name)' (\(account.accountType.rawValue), \(account.baseCurrency), \(account.costBasisMethod.rawValue)"
            + (account.includeInNetWorth ? "" : ", not in net worth") + (account.archived ? ", archived" : "") + ")"
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an investment account.",
            discussion: "Example: ledgerly invest account add Broker --broker 'Interactive Brokers' \\\n           --base-currency EUR --method fifo")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Its name (unique).") var name: String
        @Option(help: "The broker or institution.") var broker: String?
        @Option(help: "brokerage, retirement, cryptoExchange or other (default brokerage).") var type: InvestAccountType?
        @Option(name: .customLong("base-currency"), help: "Currency its costs and gains are counted in (default: the ledger's).") var baseCurrency: String?
        @Option(help: "Cost-basis method: fifo, lifo or average (default fifo).") var method: CostBasisMethod?
        @Flag(name: .customLong("exclude-from-net-worth"), help: "Leave this account out of net worth.") var excludeFromNetWorth = false

        var wording: FieldWording { InvestAccountCommand.wording.adding(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> InvestAccountRecord {
            return try gateway.call(InvestAccountCreateRequest(
                name: name, broker: broker, accountType: type, baseCurrency: baseCurrency, costBasisMethod: method,
                includeInNetWorth: excludeFromNetWorth ? false : nil))
        }

        func render(_ created: InvestAccountRecord, gateway: Gateway) throws {
            print("Added investment \(InvestAccountCommand.summary(created)).")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List investment accounts.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Flag(name: .customLong("all"), help: "Include archived accounts.") var includeArchived = false

        var wording: FieldWording { InvestAccountCommand.wording }

        func reply(from gateway: Gateway) throws -> InvestAccountListReply {
            return try gateway.call(InvestAccountListRequest(includeArchived: includeArchived ? true : nil))
        }

        func render(_ reply: InvestAccountListReply, gateway: Gateway) throws {
            if reply.accounts.isEmpty { return print("No investment accounts yet. Add one: ledgerly invest account add Broker --base-currency EUR") }
            var table = Table([.init("ID", .right), .init("NAME"), .init("BROKER"), .init("TYPE"), .init("BASE"), .init("METHOD"), .init("NET WORTH")])
            for account in reply.accounts {
                table.add([String(account.id), account.name + (account.archived ? " (archived)" : ""), account.broker ?? "", account.accountType.rawValue,
                           account.baseCurrency, account.costBasisMethod.rawValue, account.includeInNetWorth ? "yes" : "no"])
            }
            print(table.render(), terminator: "")
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change an investment account (its base currency cannot change).",
            discussion: "A new --method recomputes every lot and realised gain of the account.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Account id or name.") var account: String
        @Option(help: "New name.") var name: String?
        @Option(help: "The broker (an empty string clears it).") var broker: String?
        @Option(help: "brokerage, retirement, cryptoExchange or other.") var type: InvestAccountType?
        @Option(help: "Cost-basis method: fifo, lifo or average.") var method: CostBasisMethod?
        @Option(name: .customLong("net-worth"), help: "on or off: count this account in net worth.") var netWorth: Switch?

        var wording: FieldWording { InvestAccountCommand.wording.adding(["id": "<account>"]) }

        func reply(from gateway: Gateway) throws -> InvestAccountRecord {
            let target = try gateway.investAccount(account, field: "<account>")
            return try gateway.call(InvestAccountUpdateRequest(
                id: target.id, name: name, broker: broker, accountType: type, costBasisMethod: method, includeInNetWorth: netWorth?.isOn))
        }

        func render(_ updated: InvestAccountRecord, gateway: Gateway) throws {
            print("Investment \(InvestAccountCommand.summary(updated)).")
        }
    }

    struct Archive: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "archive", abstract: "Archive an investment account: it takes no new trades; what it holds still counts.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Account id or name.") var account: String

        var wording: FieldWording { InvestAccountCommand.wording.adding(["id": "<account>"]) }

        func reply(from gateway: Gateway) throws -> InvestAccountRecord {
            return try gateway.call(InvestAccountArchiveRequest(id: try gateway.investAccount(account, field: "<account>").id))
        }

        func render(_ archived: InvestAccountRecord, gateway: Gateway) throws {
            print("Archived investment account '\(archived.name)'.")
        }
    }
}

extension InvestAccountCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountType": "--type", "costBasisMethod": "--method", "includeInNetWorth": "--net-worth"]
}
