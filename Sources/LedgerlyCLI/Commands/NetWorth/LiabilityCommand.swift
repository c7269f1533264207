import ArgumentParser
import FoundationEssentials
import LedgerlyProtocol

/// `ledgerly liability add|list|show|pay|revalue|edit|archive`: debts with a dated balance
/// history, counted against net worth (docs/networth.md).
struct LiabilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "liability", abstract: "Liabilities: a mortgage, a loan, a card; a dated balance history counted against net worth.",
        discussion: """
            A liability's balance is a history of dated entries that are never overwritten: `revalue` sets the balance \
            from a day (a statement, interest added), `pay` lowers it by a payment. The balance after each entry is \
            computed by day, then by the order recorded; an entry that would leave a balance below zero is refused. \
            A payment is also an expense from the wallet, counted like a transfer: the wallet and the debt fall by the \
            same amount, so it is no spending (in no category, budget or payee report) and net worth does not move. \
            Archiving hides a liability from lists; a balance left still counts. Revalue a paid-off one to 0.
            Example: ledgerly liability add Mortgage --balance 180000 --type mortgage
                     ledgerly liability pay Mortgage 950 --from Checking
            """,
        subcommands: [Add.self, List.self, Show.self, Pay.self, Revalue.self, Edit.self, Archive.self], defaultSubcommand: List.self)

    static func summary(_ liability: LiabilityRecord) -> String {
        "liability \(liability.id) '\(liability.name)' (\(LiabilityTypeArgument.text(liability.liabilityType)), balance \(liability.balance) \(liability.currency) "
            + "on \(liability.balanceOn)" + (liability.archived ? ", archived" : "") + ")"
    }

    static func table(_ liabilities: [LiabilityRecord]) -> String {
        var table = Table([.init("ID", .right), .init("NAME"), .init("TYPE"), .init("BALANCE", .right), .init("CURRENCY"), .init("AS OF"), .init("INTEREST", .right), .init("DUE")])
        for liability in liabilities {
            table.add([String(liability.id), liability.name + (liability.archived ? " (archived)" : ""), LiabilityTypeArgument.text(liability.liabilityType),
                       liability.balance, liability.currency, liability.balanceOn, liability.interestRate.map { "\($0) %" } ?? "", liability.dueDate ?? ""])
        }
        return table.render()
    }

    static func details(_ liability: LiabilityRecord, wallets: [Int64: String]) -> String {
        var list = DetailList()
        list.add("Liability", "\(liability.id) \(liability.name)")
        list.add("Type", LiabilityTypeArgument.text(liability.liabilityType))
        list.add("Balance", "\(liability.balance) \(liability.currency) (since \(liability.balanceOn))")
        list.add("Interest", liability.interestRate.map { "\($0) % a year (informative)" })
        list.add("Due", liability.dueDate)
        list.add("Notes", liability.notes)
        list.add("Archived", liability.archived ? "yes (a balance left still counts)" : "no")
        list.add("Created", liability.createdAt)
        list.add("Updated", liability.updatedAt)
        var text = list.render()
        guard let history = liability.history, !history.isEmpty else { return text }
        var table = Table([.init("DATE"), .init("ENTRY"), .init("AMOUNT", .right), .init("BALANCE AFTER", .right), .init("FROM"), .init("TX", .right), .init("NOTES")])
        for entry in history {
            let wallet = entry.walletId.map { wallets[$0] ?? "wallet \($0)" } ?? ""
            table.add([entry.date, entry.kind == .balance ? "balance" : "payment", entry.kind == .payment ? "-" + entry.amount : entry.amount, entry.balanceAfter,
                       wallet, entry.transactionId.map(String.init) ?? "", entry.notes ?? ""])
        }
        text += "\nHistory (\(liability.currency)), by day then as recorded; a balance entry sets the balance, a payment lowers it:\n" + table.render()
        return text
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a liability with its opening balance.",
            discussion: """
                It counts against net worth from --date (default today). Interest rate and due date are for your \
                information; the balance changes only by `liability revalue` and `liability pay`.
                Example: ledgerly liability add Mortgage --balance 180000 --type mortgage
                         ledgerly liability add Loan --balance 9000 --interest-rate 4.5 \\
                           --date 2026-01-01
                         ledgerly liability add Visa --balance 420.15 --type credit-card
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Its name (unique, any case).") var name: String
        @Option(parsing: .unconditional, help: "The balance owed, zero or more, in --currency.", transform: AmountOptions.plain) var balance: String
        @Option(help: "Its currency (default: the base currency).") var currency: String?
        @Option(help: "mortgage, loan, credit-card or other (default loan).") var type: LiabilityTypeArgument?
        @Option(parsing: .unconditional, help: "The day of the opening balance, YYYY-MM-DD, today, yesterday, -3d, … (default today; not in the future).", transform: DayOptions.day) var date: String?
        @Option(name: .customLong("interest-rate"), parsing: .unconditional, help: "Yearly interest in percent, e.g. 3.25 (informative).", transform: AmountOptions.decimal) var interestRate: String?
        @Option(parsing: .unconditional, help: "The next or final due date, YYYY-MM-DD, today, -3d, … (informative).", transform: DayOptions.day) var due: String?
        @Option(help: "Notes.") var notes: String?

        var wording: FieldWording { LiabilityCommand.wording.adding(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> LiabilityRecord {
            return try gateway.call(LiabilityCreateRequest(
                name: name, liabilityType: type?.type, balance: balance, currency: currency, balanceOn: date, interestRate: interestRate, dueDate: due, notes: notes))
        }

        func render(_ created: LiabilityRecord, gateway: Gateway) throws {
            print("Added \(LiabilityCommand.summary(created)).")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List liabilities with their latest balance.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Flag(name: .customLong("all"), help: "Include archived liabilities (a balance left still counts).") var includeArchived = false

        var wording: FieldWording { LiabilityCommand.wording }

        func reply(from gateway: Gateway) throws -> LiabilityListReply {
            return try gateway.call(LiabilityListRequest(includeArchived: includeArchived ? true : nil))
        }

        func render(_ reply: LiabilityListReply, gateway: Gateway) throws {
            if reply.liabilities.isEmpty { return print("No liabilities yet. Add one: ledgerly liability add Mortgage --balance 180000 --type mortgage") }
            print(LiabilityCommand.table(reply.liabilities), terminator: "")
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one liability with its history and the balance after each entry.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Liability name or id.") var liability: String

        var wording: FieldWording { LiabilityCommand.wording.adding(["id": "<liability>"]) }

        func reply(from gateway: Gateway) throws -> LiabilityRecord {
            return try gateway.call(LiabilityGetRequest(id: try gateway.liability(liability).id))
        }

        func render(_ found: LiabilityRecord, gateway: Gateway) throws {
            let wallets = found.history?.contains { $0.walletId != nil } == true
                ? Dictionary(uniqueKeysWithValues: try gateway.call(WalletListRequest(includeArchived: true)).wallets.map { ($0.id, $0.name) }) : [:]
            print(LiabilityCommand.details(found, wallets: wallets), terminator: "")
        }
    }

    struct Pay: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "pay",
            abstract: "Pay a liability from a wallet: lowers the balance and records the expense.",
            usage: "ledgerly liability pay <liability> <amount> --from <wallet> [--wallet-amount <amount>] [--date <date>] [--notes <notes>] [--json]",
            discussion: """
                The payment is an expense from --from, linked to the liability and counted like a transfer: it is no \
                spending (in no category, budget or payee report) and net worth does not change, since the wallet and \
                the debt fall by the same amount. <amount> is in the liability's currency and at most its balance on \
                --date; from a wallet in another currency it is converted at that day's rate, or give what left the \
                wallet with --wallet-amount. A payment cannot be edited or deleted on its own: correct a mistake with \
                `ledgerly liability revalue`.
                Example: ledgerly liability pay Mortgage 950 --from Checking --date 2026-02-01
                         ledgerly liability pay Card 120 --from Checking --wallet-amount 110.40
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Liability name or id.") var liability: String
        /// One amount; read as "everything left over" so that "-5" arrives here as a (refused)
        /// amount instead of being taken for an unknown option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The amount paid, positive, in the liability's currency.", valueName: "amount"), transform: AmountOptions.plain)
        var amountArguments: [String] = []
        @Option(help: "The wallet it is paid from (id or name).", completion: NameCompletion.wallets) var from: String
        @Option(name: .customLong("wallet-amount"), parsing: .unconditional, help: "What left the wallet, in its currency, when that is not the liability's.", transform: AmountOptions.plain) var walletAmount: String?
        @Option(parsing: .unconditional, help: "YYYY-MM-DD, today, yesterday, -3d, … (default today; not in the future).", transform: DayOptions.day) var date: String?
        @Option(help: "Notes (also on the wallet's transaction).") var notes: String?

        func validate() throws {
            try LoneValueArgument.check(amountArguments, name: "amount")
        }

        var wording: FieldWording { LiabilityCommand.wording.adding(["id": "<liability>", "amount": "<amount>"]) }

        /// With the wallet as found, whose name and currency the sentence gives.
        func reply(from gateway: Gateway) throws -> Resolved<LiabilityPaymentReply, WalletRecord> {
            let target = try gateway.liability(liability)
            let wallet = try gateway.wallet(from, field: "--from")
            return Resolved(try gateway.call(LiabilityPayRequest(
                id: target.id, walletId: wallet.id, amount: amountArguments[0], walletAmount: walletAmount, date: date, notes: notes)), wallet)
        }

        func render(_ resolved: Resolved<LiabilityPaymentReply, WalletRecord>, gateway: Gateway) throws {
            let reply = resolved.body, wallet = resolved.context
            let paid = reply.transaction
            // The amount as the store wrote it (its currency's decimals), not as typed.
            let amount = reply.liability.history?.last { $0.transactionId == paid.id }?.amount ?? amountArguments[0]
            print("Paid \(amount) \(reply.liability.currency) of '\(reply.liability.name)' from '\(wallet.name)' "
                  + "(transaction \(paid.id): \(paid.walletAmount) \(wallet.currency) on \(paid.date)); balance now \(reply.liability.balance) \(reply.liability.currency).")
        }
    }

    struct Revalue: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "revalue",
            abstract: "Set the balance from a day on (a statement, interest added); earlier entries stay.",
            usage: "ledgerly liability revalue <liability> <balance> [--date <date>] [--notes <notes>] [--json]",
            discussion: """
                Adds a balance entry; nothing is overwritten, so net worth before --date does not change. Payments \
                after --date lower the new balance in turn. This is also how a mistaken payment is corrected.
                Example: ledgerly liability revalue Mortgage 179420.55 --date 2026-03-31
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Liability name or id.") var liability: String
        /// One balance; read as "everything left over" so that "-5" arrives here as a (refused)
        /// balance instead of being taken for an unknown option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The balance owed from --date, zero or more, in the liability's currency.", valueName: "balance"), transform: AmountOptions.plain)
        var balanceArguments: [String] = []
        @Option(parsing: .unconditional, help: "The day it holds from, YYYY-MM-DD, today, yesterday, -3d, … (default today; not in the future).", transform: DayOptions.day) var date: String?
        @Option(help: "Notes.") var notes: String?

        func validate() throws {
            try LoneValueArgument.check(balanceArguments, name: "balance")
        }

        var wording: FieldWording { LiabilityCommand.wording.adding(["id": "<liability>", "balance": "<balance>"]) }

        func reply(from gateway: Gateway) throws -> LiabilityRecord {
            return try gateway.call(LiabilityRevalueRequest(id: try gateway.liability(liability).id, balance: balanceArguments[0], date: date, notes: notes))
        }

        func render(_ updated: LiabilityRecord, gateway: Gateway) throws {
            print("Revalued \(LiabilityCommand.summary(updated)).")
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a liability's name, type, interest rate, due date or notes (its balance changes only by `revalue` and `pay`).",
            discussion: "An empty string clears --interest-rate, --due or --notes. Example: ledgerly liability edit Visa --due 2026-12-05")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Liability name or id.") var liability: String
        @Option(help: "New name.") var name: String?
        @Option(help: "mortgage, loan, credit-card or other.") var type: LiabilityTypeArgument?
        @Option(name: .customLong("interest-rate"), parsing: .unconditional, help: "Yearly interest in percent.", transform: AmountOptions.decimal) var interestRate: String?
        @Option(parsing: .unconditional, help: "The next or final due date, YYYY-MM-DD, today, -3d, ….", transform: DayOptions.day) var due: String?
        @Option(help: "Notes.") var notes: String?

        func validate() throws {
            if name == nil && type == nil && interestRate == nil && due == nil && notes == nil {
                throw ValidationError("nothing to change: pass --name, --type, --interest-rate, --due or --notes")
            }
        }

        var wording: FieldWording { LiabilityCommand.wording.adding(["id": "<liability>"]) }

        func reply(from gateway: Gateway) throws -> LiabilityRecord {
            return try gateway.call(LiabilityUpdateRequest(
                id: try gateway.liability(liability).id, name: name, liabilityType: type?.type, interestRate: interestRate, dueDate: due, notes: notes))
        }

        func render(_ updated: LiabilityRecord, gateway: Gateway) throws {
            print("Updated \(LiabilityCommand.summary(updated)).")
        }
    }

    struct Archive: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Archive a liability: hidden from lists; a balance left still counts (revalue it to 0 when it is paid off).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Liability name or id.") var liability: String

        var wording: FieldWording { LiabilityCommand.wording.adding(["id": "<liability>"]) }

        func reply(from gateway: Gateway) throws -> LiabilityRecord {
            return try gateway.call(LiabilityArchiveRequest(id: try gateway.liability(liability).id))
        }

        func render(_ archived: LiabilityRecord, gateway: Gateway) throws {
            print("Archived liability '\(archived.name)'" + (DecimalText.value(archived.balance) == 0 ? "." : "; its balance (\(archived.balance) \(archived.currency)) still counts in net worth."))
        }
    }
}

extension LiabilityCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["liabilityType": "--type", "balanceOn": "--date", "dueDate": "--due", "walletId": "--from"]
}
