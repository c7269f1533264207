import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly recurring add|list|pause|resume|delete`: transactions that repeat.
struct RecurringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recurring", abstract: "Transactions that repeat: posted (or reminded of) once per occurrence.",
        discussion: """
            ledgerly-alerts runs the schedule: each due occurrence is posted (or, with --remind, announced \
            as an alert) exactly once, and after downtime every missed occurrence is handled once, in order.
            """,
        subcommands: [Add.self, List.self, Pause.self, Resume.self, Delete.self], defaultSubcommand: List.self)

    static func find(_ reference: String, gateway: Gateway) throws -> RecurringRecord {
        let all = try gateway.call(RecurringListRequest()).recurring
        if let id = Int64(reference), let match = all.first(where: { $0.id == id }) { return match }
        if let match = all.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match }
        throw CLIFailure(message: "no recurring transaction '\(reference)'; see `ledgerly recurring list`", status: .refused)
    }

    static func every(_ record: RecurringRecord) -> String {
        let unit = switch record.frequency {
        case .daily: "day"
        case .weekly: "week"
        case .monthly: "month"
        case .yearly: "year"
        }
        return record.every == 1 ? "every \(unit)" : "every \(record.every) \(unit)s"
    }

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a recurring transaction.",
            discussion: "Example: ledgerly recurring add Rent --wallet Checking --amount 1200 \\\n           --category Housing --monthly --start 2026-12-01")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Its name (also the transactions' note unless --notes).") var name: String
        @Option(help: "Wallet id or name.", completion: NameCompletion.wallets) var wallet: String
        @Option(parsing: .unconditional, help: "Positive amount.", transform: AmountOptions.plain) var amount: String
        @Option(help: "expense or income.") var kind: TransactionKind = .expense
        @Option(help: "Category id, path or name.", completion: NameCompletion.categories) var category: String?
        @Option(help: "Currency of the amount (default: the wallet's).") var currency: String?
        @Option(help: "Notes for each transaction.") var notes: String?
        @Option(name: .customLong("tag"), help: "A tag (repeatable).") var tags: [String] = []
        @Option(help: "daily, weekly, monthly or yearly.") var frequency: RecurrenceFrequency = .monthly
        @Option(help: "Every N periods (default 1).") var every = 1
        @Option(parsing: .unconditional, help: "First occurrence, YYYY-MM-DD, today, -3d, … (default today).", transform: DayOptions.day) var start: String?
        @Option(parsing: .unconditional, help: "Last possible occurrence, YYYY-MM-DD, today, -3d, ….", transform: DayOptions.day) var end: String?
        @Flag(help: "Only remind (an alert) instead of posting the transaction.") var remind = false

        var wording: FieldWording { RecurringCommand.wording }

        func reply(from gateway: Gateway) throws -> RecurringRecord {
            let template = RecurringTemplate(
                kind: kind, walletId: try gateway.wallet(wallet).id, amount: amount, currency: currency,
                categoryId: try category.map { try gateway.category($0).id }, notes: notes, tags: tags.isEmpty ? nil : tags)
            return try gateway.call(RecurringCreateRequest(
                name: name, template: template, frequency: frequency, every: every, startDate: start ?? Timestamp.today(), endDate: end,
                mode: remind ? .remind : .post))
        }

        func render(_ created: RecurringRecord, gateway: Gateway) throws {
            print("Added '\(created.name)': \(created.template.amount) \(RecurringCommand.every(created)) from \(created.startDate)\(created.endDate.map { " to \($0)" } ?? ""), \(created.mode == .post ? "posted" : "reminded") by ledgerly-alerts; next \(created.nextRun ?? "none").")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List recurring transactions and their next occurrence.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        var wording: FieldWording { RecurringCommand.wording }

        func reply(from gateway: Gateway) throws -> RecurringListReply {
            return try gateway.call(RecurringListRequest())
        }

        func render(_ reply: RecurringListReply, gateway: Gateway) throws {
            if reply.recurring.isEmpty { return print("No recurring transactions. Add one: ledgerly recurring add Rent --wallet Checking --amount 1200") }
            var table = Table([.init("ID", .right), .init("NAME"), .init("AMOUNT", .right), .init("KIND"), .init("SCHEDULE"), .init("MODE"), .init("NEXT"), .init("")])
            for item in reply.recurring {
                table.add([String(item.id), item.name, item.template.amount, item.template.kind.rawValue, RecurringCommand.every(item), item.mode.rawValue,
                           item.nextRun ?? "ended", item.paused ? "paused" : ""])
            }
            print(table.render(), terminator: "")
        }
    }

    struct Pause: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause: nothing is posted until resumed.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Id or name.") var recurring: String

        var wording: FieldWording { RecurringCommand.wording.adding(["id": "<recurring>"]) }

        func reply(from gateway: Gateway) throws -> RecurringRecord {
            let paused = try gateway.call(RecurringPauseRequest(id: try RecurringCommand.find(recurring, gateway: gateway).id, paused: true))
            return paused
        }

        func render(_ paused: RecurringRecord, gateway: Gateway) throws {
            print("Paused '\(paused.name)'. Resume with `ledgerly recurring resume \(paused.name)` (occurrences missed meanwhile are skipped).")
        }
    }

    struct Resume: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume from the next occurrence not yet past.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Id or name.") var recurring: String

        var wording: FieldWording { RecurringCommand.wording.adding(["id": "<recurring>"]) }

        func reply(from gateway: Gateway) throws -> RecurringRecord {
            return try gateway.call(RecurringPauseRequest(id: try RecurringCommand.find(recurring, gateway: gateway).id, paused: false))
        }

        func render(_ resumed: RecurringRecord, gateway: Gateway) throws {
            print("Resumed '\(resumed.name)'; next \(resumed.nextRun ?? "none").")
        }
    }

    struct Delete: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a recurring transaction (what it posted stays).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Id or name.") var recurring: String

        var wording: FieldWording { RecurringCommand.wording.adding(["id": "<recurring>"]) }

        func reply(from gateway: Gateway) throws -> RecurringRecord {
            return try gateway.call(RecurringDeleteRequest(id: try RecurringCommand.find(recurring, gateway: gateway).id))
        }

        func render(_ deleted: RecurringRecord, gateway: Gateway) throws {
            print("Deleted '\(deleted.name)'.")
        }
    }
}

extension RecurringCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["walletId": "--wallet", "categoryId": "--category", "tags": "--tag"]
}
