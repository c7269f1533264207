import ArgumentParser
import LedgerlyInterchange

extension ImportCommand {
    /// `ledgerly import camt`: an ISO 20022 camt.053 statement.
    struct CAMT: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "camt", abstract: "Import an ISO 20022 camt.053 statement (XML) into a wallet.",
            discussion: """
                Reads camt.053 versions .001.02 to .001.08. Each booked entry (Ntry, status BOOK) becomes a transaction \
                dated by its booking date, of Amt (DBIT: an expense, CRDT: income), described by the counterparty and the \
                remittance text; a batch entry whose transactions each carry an amount becomes one transaction each.
                Pending entries are left out and listed. Entries are known again by the bank's reference (AcctSvcrRef).
                The account's currency (Acct/Ccy) must be the wallet's. Entries of zero are left out with a note; a file whose \
                entries are all left out is refused, naming why. With --json, standard output is the import's reply with \
                every note printed (notes), also for a file with no entry (imported 0).
                Example: ledgerly import camt 2026-11.xml --wallet Giro --dry-run
                Example: ledgerly import camt statements.xml --wallet Giro \\
                           --account DE89370400440532013000 --rules rules.json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var statement: StatementImportOptions
        @Option(help: "The account (IBAN or other id) to read when the file holds statements of several.") var account: String?
        @OptionGroup var batch: ImportBatchOptions

        func run() throws {
            try StatementImport.run(statement, global: global, json: output.json, batchSize: batch.batchSize, prefix: "camt") { text, rules, _ throws(BankStatementError) in
                try CAMTStatementReader.parse(text: text, rules: rules, account: account)
            }
        }
    }
}
