import ArgumentParser
import LedgerlyProtocol

/// `ledgerly tag add|list`
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Add and list tags (transactions also create tags on first use).",
        subcommands: [Add.self, List.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a tag.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The tag's name.") var name: String

        func run() throws {
            try CommandRunner.run {
                let tag = try Gateway(global, wording: FieldWording(["name": "<name>"])).call(TagCreateRequest(name: name))
                if output.json { return try JSONOutput.print(tag) }
                print("Added tag \(tag.id) '\(tag.name)'.")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List tags.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            try CommandRunner.run {
                let reply = try Gateway(global).call(TagListRequest())
                if output.json { return try JSONOutput.print(reply) }
                var table = Table([.init("ID", .right), .init("NAME")])
                for tag in reply.tags { table.add([String(tag.id), tag.name]) }
                print(table.render(), terminator: "")
            }
        }
    }
}
