import ArgumentParser
import FoundationEssentials
import LedgerlyCore
import LedgerlyInterchange

extension ImportCommand {
    /// `ledgerly import mappings [NAME]`: the CSV mappings shipped with Ledgerly, or one of them as
    /// a mapping file.
    struct Mappings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mappings", abstract: "List the bank CSV mappings shipped with Ledgerly (for import csv --mapping NAME), or print one as a mapping file.",
            discussion: """
                With NAME, prints that mapping as a mapping file (JSON), which import csv --mapping FILE reads as the shipped \
                one is read (its "findHeader" looks for the header below the bank's preamble): a start for your own.
                Without NAME, lists them; --json lists them as one object of mappings by name.
                Example: ledgerly import mappings dkb --json > mybank.json
                """)
        @Argument(help: "A shipped mapping to print as a mapping file.") var name: String?
        @OptionGroup var output: OutputOptions

        func run() throws {
            try CommandRunner.run {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                if let name {
                    guard let shipped = BankCSVShippedMapping.named(name) else {
                        throw CLIFailure(message: "no shipped mapping named \(name)", status: .refused,
                                         hint: "the shipped ones are \(BankCSVShippedMapping.all.map(\.name).joined(separator: ", "))")
                    }
                    return print(String(decoding: try encoder.encode(shipped.mapping), as: UTF8.self))
                }
                if output.json {
                    let mappings = Dictionary(uniqueKeysWithValues: BankCSVShippedMapping.all.map { ($0.name, $0.mapping) })
                    return print(String(decoding: try encoder.encode(mappings), as: UTF8.self))
                }
                let width = BankCSVShippedMapping.all.map(\.name.count).max() ?? 0
                for shipped in BankCSVShippedMapping.all {
                    print(shipped.name.padded(toLength: width + 2) + shipped.about)
                }
            }
        }
    }
}
