import ArgumentParser
import Foundation
import LedgerlyInterchange

extension ImportCommand {
    /// `ledgerly import mappings`: the CSV mappings shipped with Ledgerly.
    struct Mappings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mappings", abstract: "List the bank CSV mappings shipped with Ledgerly (for import csv --mapping NAME).",
            discussion: "Example: ledgerly import mappings --json > dkb.json   (each as a mapping file to start your own from)")
        @OptionGroup var output: OutputOptions

        func run() throws {
            try CommandRunner.run {
                if output.json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    let mappings = Dictionary(uniqueKeysWithValues: BankCSVShippedMapping.all.map { ($0.name, $0.mapping) })
                    return print(String(decoding: try encoder.encode(mappings), as: UTF8.self))
                }
                let width = BankCSVShippedMapping.all.map(\.name.count).max() ?? 0
                for shipped in BankCSVShippedMapping.all {
                    print(shipped.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + shipped.about)
                }
            }
        }
    }
}
