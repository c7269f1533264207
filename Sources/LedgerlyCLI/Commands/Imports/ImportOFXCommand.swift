import ArgumentParser
import LedgerlyInterchange

extension ImportCommand {
    /// `ledgerly import ofx`: an OFX or QFX statement (bank or credit card).
    struct OFX: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ofx", abstract: "Import an OFX or QFX statement (bank or credit card) into a wallet.",
            discussion: """
                Reads OFX 1.x (SGML), OFX 2.x (XML) and Quicken's QFX: each STMTTRN of a bank (STMTRS) or credit-card \
                (CCSTMTRS) statement becomes a transaction dated DTPOSTED, of TRNAMT (negative: an expense), described by \
                NAME and MEMO. Transactions are known again by their FITID, so a statement imported twice, or two \
                overlapping ones, import each transaction once. The statement's currency (CURDEF) must be the wallet's. \
                End tags left out (as OFX 1.x allows) and an XML header over a 1.x body are read. A file whose \
                transactions are all left out (of zero) is refused, naming why. With --json, standard output is the import's reply \
                with every note printed (notes), also for a file with no transaction (imported 0).
                Example: ledgerly import ofx checking.ofx --wallet Checking --dry-run
                Example: ledgerly import ofx export.qfx --wallet Visa \\
                           --account 4111222233334444 --rules rules.json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var statement: StatementImportOptions
        @Option(help: "The account (ACCTID) to read when the file holds statements of several.") var account: String?
        @OptionGroup var batch: ImportBatchOptions

        func run() throws {
            try StatementImport.run(statement, global: global, json: output.json, batchSize: batch.batchSize, prefix: "ofx") { text, rules, _ throws(BankStatementError) in
                try OFXStatementReader.parse(text: text, rules: rules, account: account)
            }
        }
    }
}
