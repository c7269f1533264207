import ArgumentParser
import LedgerlyProtocol

/// `ledgerly tag add|list`
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Add and list tags (transactions also create tags on first use).",
        subcommands: [Add.self, List.self])

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a tag.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The tag's name.") var name: String

        var wording: FieldWording { FieldWording(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> TagRecord {
            return try gateway.call(TagCreateRequest(name: name))
        }

        func render(_ tag: TagRecord, gateway: Gateway) throws {
            print("Added tag \(tag.id) '\(tag.name)'.")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List tags.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func reply(from gateway: Gateway) throws -> TagListReply {
            return try gateway.call(TagListRequest())
        }

        func render(_ reply: TagListReply, gateway: Gateway) throws {
            var table = Table([.init("ID", .right), .init("NAME")])
            for tag in reply.tags { table.add([String(tag.id), tag.name]) }
            print(table.render(), terminator: "")
        }
    }
}
