import ArgumentParser
import FoundationEssentials
import LedgerlyInterchange
import LedgerlyProtocol

/// `ledgerly invest import`: a broker's trade CSV into one account, sent as one
/// `invest.trade.import` (all or nothing; duplicates of trades already recorded are skipped).
struct InvestImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a broker's trade CSV into an investment account (all or nothing).",
        discussion: """
            --map names the column of each field: kind, symbol and date are required; quantity, price, fee, amount \
            (income), rate and notes are optional. Kinds are buy, sell, dividend, interest and distribution in any case; \
            --kinds maps the broker's own words. Numbers go to the store as written (plain decimals). A line equal to a \
            trade already in the account is a duplicate and skipped; one bad line imports nothing and is named.
            Example: ledgerly invest import trades.csv --account Broker --wallet Checking \\
              --map kind=Type,symbol=Sym,date=Date,quantity=Qty,price=Price,amount=Amt \\
              --kinds BUY=buy,SELL=sell,DIV=dividend --date-format DD.MM.YYYY --dry-run
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The CSV file (- for standard input).", completion: .file()) var file: String
    @Option(help: "The investment account (id or name).") var account: String
    @Option(help: "Wallet (id or name) income lines are paid into; required when the file has any.", completion: NameCompletion.wallets) var wallet: String?
    @Option(help: "Columns: field=Column,… (fields: kind, symbol, date, quantity, price, fee, amount, rate, notes).") var map: String
    @Option(help: "The broker's kind words: WORD=kind,… (e.g. BUY=buy,DIV=dividend).") var kinds: String?
    @Option(name: .customLong("date-format"), help: "How the file writes days, e.g. DD.MM.YYYY or M/D/YY (default YYYY-MM-DD).") var dateFormat: String?
    @Flag(name: .customLong("dry-run"), help: "Check everything and count; change nothing.") var dryRun = false

    func run() throws {
        try CommandRunner.run {
            let mapping: BrokerTradeMapping
            let format: BankCSVDateFormat?
            do {
                mapping = try BrokerTradeMapping(map: map, kinds: kinds)
            } catch let error as BankStatementError {
                throw CLIFailure(message: error.message, status: .refused)
            }
            do {
                format = try dateFormat.map { try BankCSVDateFormat($0) }
            } catch let error as BankStatementError {
                throw CLIFailure(message: "--date-format: \(error.message)", status: .refused)
            }
            let gateway = try Gateway(global, patientMilliseconds: 120_000, wording: Self.wording)
            let target = try gateway.investAccount(account)
            let walletId = try wallet.map { try gateway.wallet($0).id }
            let text = try ImportCommand.read(file)
            var progress = Progress("reading", total: 1)
            let lines: [TradeImportLine]
            do {
                lines = try BrokerTradeCSV.lines(text: text, mapping: mapping, dateFormat: format) { done, total in
                    if done == 0 { progress = Progress("reading", total: total) }
                    progress.update(done)
                }
            } catch let error as BankStatementError {
                progress.finish()
                throw CLIFailure(message: "\(file)\(error.line.map { " line \($0)" } ?? ""): \(error.message); nothing was imported", status: .refused)
            }
            progress.finish()
            guard !lines.isEmpty else { return print("\(file) has no trades to import.") }
            let rows = FieldWording.FileRows(
                file: file, lines: lines.map(\.line),
                columns: Dictionary(uniqueKeysWithValues: mapping.columns.map { ($0.key.rawValue, $0.value) }))
            let sending = try Gateway(global, patientMilliseconds: 120_000, wording: Self.wording.addingRows(of: "lines", rows))
            if CommandOutput.current.errorIsTerminal { CommandOutput.current.writeError("\(dryRun ? "checking" : "importing") \(lines.count) lines…") }
            let reply: TradeImportReply
            do {
                reply = try sending.call(TradeImportRequest(accountId: target.id, walletId: walletId, lines: lines, dryRun: dryRun ? true : nil))
            } catch let failure as CLIFailure {
                if CommandOutput.current.errorIsTerminal { CommandOutput.current.writeError(Progress.clearLine) }
                // The store names a line it refuses as a whole ("line 4: …"): say which file.
                let message = failure.message.hasPrefix("line ") ? "\(file) \(failure.message)" : failure.message
                throw CLIFailure(message: message + "; nothing was imported", status: failure.status, hint: failure.hint)
            }
            if CommandOutput.current.errorIsTerminal { CommandOutput.current.writeError(Progress.clearLine) }
            if output.json { return try JSONOutput.print(reply) }
            let style = TerminalStyle.standardOutput
            print("\(reply.dryRun ? "Would import" : "Imported") \(reply.imported) of \(lines.count) trades from \(file) into '\(target.name)'.")
            if !reply.duplicates.isEmpty {
                let shown = reply.duplicates.prefix(10).map(String.init).joined(separator: ", ") + (reply.duplicates.count > 10 ? ", …" : "")
                print(style.yellow("\(reply.duplicates.count) duplicate(s) skipped (already recorded): line\(reply.duplicates.count == 1 ? "" : "s") \(shown)"))
            }
            if reply.dryRun { print(style.dim("Dry run: nothing was changed.")) }
        }
    }

    /// The options this command fills request fields from, where the option's name is not the
    /// field's in kebab case (FieldWording).
    static let wording: FieldWording = ["accountId": "--account", "walletId": "--wallet"]
}
