import ArgumentParser
import LedgerlyInterchange

extension StatementTextEncoding: ExpressibleByArgument {
    /// Any of the usual spellings (`utf8`, `iso-8859-1`, `windows-1252`), not only the listed ones.
    public init?(argument: String) {
        self.init(name: argument)
    }
}

/// What every `ledgerly import <format>` of a bank statement takes: the file, the wallet, rules,
/// the encoding and a dry run.
struct StatementImportOptions: ParsableArguments {
    @Argument(help: "The statement file (- for standard input).", completion: .file()) var file: String
    @Option(help: "Wallet (id or name) the rows belong to.", completion: NameCompletion.wallets) var wallet: String
    @Option(help: "Rules (JSON: an array of rules as a CSV mapping's \"rules\") that set categories and tags by the description.", completion: .file()) var rules: String?
    @Option(help: "The file's encoding: utf-8, latin1 (iso-8859-1) or cp1252 (windows-1252) (default: UTF-8, else Windows-1252 with a note).") var encoding: StatementTextEncoding?
    @Flag(help: "Check everything and show what would happen; change nothing.") var dryRun = false
}
