import ArgumentParser
import LedgerlyInterchange
import LedgerlyProtocol

extension ImportCommand {
    /// `ledgerly import qif`: a Quicken Interchange Format file of a bank, card or cash account.
    struct QIF: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "qif", abstract: "Import a QIF file (!Type:Bank, CCard, Cash, Oth A or Oth L) into a wallet.",
            discussion: """
                Each record becomes a transaction dated D, of T (negative: an expense), described by the payee (P), memo (M) \
                and number (N). QIF dates follow the exporting program's locale: give their format with --date-format \
                (M/D/YYYY, D.M.YYYY, M/D'YY …) or let it be told from the file's dates; a file whose dates fit two formats \
                is refused. A two-digit year after ' is 20YY, otherwise the year from this year - 80 to this year + 19 \
                (03/08/13 is 2013), said in a note. A category (L, and split lines S/$) is used when this ledger has that category path \
                (Food:Groceries is Food/Groceries); one it lacks refuses the file unless --ignore-categories. Split parts \
                win over a rule's category; a split that cannot be kept is imported whole, with a note. A split part \
                [Account] becomes a transfer to or from the wallet of that name (none: the file is refused). A class \
                after / in L becomes a tag. Amounts are in the wallet's currency (QIF has none). Records of zero, # \
                comments, lists, investment accounts and other accounts' blocks are passed over, each with a note. A file \
                whose records are all left out is refused, naming why. With --json, standard output is the import's reply \
                with every note printed (notes), also for a file with no transaction (imported 0).
                Example: ledgerly import qif checking.qif --wallet Checking \\
                           --date-format M/D/YYYY --dry-run
                Example: ledgerly import qif cash.qif --wallet Cash --ignore-categories
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var statement: StatementImportOptions
        @Option(help: "The dates' format, with the tokens YYYY YY MM M DD D (e.g. M/D/YYYY, D.M.YYYY, M/D'YY).") var dateFormat: String?
        @Flag(help: "Import rows whose category (L) this ledger lacks without a category, instead of refusing the file.") var ignoreCategories = false
        @OptionGroup var batch: ImportBatchOptions

        func run() throws {
            try StatementImport.run(
                statement, global: global, json: output.json, batchSize: batch.batchSize, prefix: "qif", ignoreSourceCategories: ignoreCategories
            ) { text, rules, wallet throws(BankStatementError) in
                try QIFStatementReader.parse(text: text, dateFormat: dateFormat, currency: wallet.currency, rules: rules)
            }
        }
    }
}
