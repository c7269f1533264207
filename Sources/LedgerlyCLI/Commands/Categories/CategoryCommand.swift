import ArgumentParser
import LedgerlyCore
import LedgerlyProtocol

/// `ledgerly category add|list|show|edit`
struct CategoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "category", abstract: "Manage income and expense categories (a tree: Food/Groceries).",
        subcommands: [Add.self, List.self, Show.self, Edit.self])

    struct Add: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a category.")
        @OptionGroup var global: HomeOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The category's name.") var name: String
        @Option(help: "expense or income (required at the top level; children take their parent's).") var kind: CategoryKind?
        @Option(help: "Parent category: id, path (Food) or name.") var parent: String?
        @Option(help: "Color as #RRGGBB.") var color: String?
        @Option(help: "An emoji or short icon name.") var icon: String?
        @Option(help: "on or off: whether budgets apply (default on for expenses).") var budgeting: Switch?
        @Option(name: .customLong("sort-order"), help: "Position among siblings.") var sortOrder: Int?

        var wording: FieldWording { CategoryCommand.wording.adding(["name": "<name>"]) }

        func reply(from gateway: Gateway) throws -> CategoryRecord {
            let parentId = try parent.map { try gateway.category($0, field: "--parent").id }
            return try gateway.call(CategoryCreateRequest(
                name: name, kind: kind, parentId: parentId, icon: icon, color: color, budgetingEnabled: budgeting?.isOn, sortOrder: sortOrder))
        }

        func render(_ created: CategoryRecord, gateway: Gateway) throws {
            print("Added \(created.kind.rawValue) category \(created.id) '\(created.path)'.")
        }
    }

    struct List: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the category tree.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only expense or income categories.") var kind: CategoryKind?

        var wording: FieldWording { CategoryCommand.wording }

        func reply(from gateway: Gateway) throws -> CategoryListReply {
            return try gateway.call(CategoryListRequest(kind: kind))
        }

        func render(_ reply: CategoryListReply, gateway: Gateway) throws {
            if reply.categories.isEmpty { return print("No categories yet. Add one: ledgerly category add Food --kind expense") }
            let style = TerminalStyle.standardOutput
            var table = Table([.init("ID", .right), .init("CATEGORY"), .init("KIND"), .init("BUDGET"), .init("COLOR")])
            for category in reply.categories {
                let depth = category.path.split(separator: "/").count - 1
                let label = String(repeating: "  ", count: depth) + (depth > 0 ? "└ " : "") + category.name
                table.add([String(category.id), label, category.kind.rawValue, category.budgetingEnabled ? "yes" : "no", category.color ?? ""]) { column, text in
                    column == 2 ? (category.kind == .income ? style.green(text) : text) : text
                }
            }
            print(table.render(), terminator: "")
        }
    }

    struct Show: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one category.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Category id, path (Food/Groceries) or name.") var category: String

        var wording: FieldWording { CategoryCommand.wording.adding(["id": "<category>"]) }

        func reply(from gateway: Gateway) throws -> CategoryRecord {
            // An id goes to the store as it is (an unknown one is the store's not_found);
            // a path or name is looked up first.
            let id = try Int64(category) ?? gateway.category(category, field: "<category>").id
            return try gateway.call(CategoryGetRequest(id: id))
        }

        func render(_ found: CategoryRecord, gateway: Gateway) throws {
            print("""
                Category \(found.id): \(found.path)
                  kind       \(found.kind.rawValue)
                  budgeting  \(found.budgetingEnabled ? "on" : "off")
                  color      \(found.color ?? "-")
                  icon       \(found.icon ?? "-")
                  sort order \(found.sortOrder)
                """)
        }
    }

    struct Edit: ReplyCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Rename, move or restyle a category.")
        @OptionGroup var global: HomeOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Category id, path or name.") var category: String
        @Option(help: "New name.") var name: String?
        @Option(help: "Move under this parent (id, path or name).") var parent: String?
        @Flag(name: .customLong("top-level"), help: "Move to the top level.") var topLevel = false
        @Option(help: "Color as #RRGGBB.") var color: String?
        @Option(help: "An emoji or short icon name.") var icon: String?
        @Option(help: "on or off: whether budgets apply.") var budgeting: Switch?
        @Option(name: .customLong("sort-order"), help: "Position among siblings.") var sortOrder: Int?

        func validate() throws {
            if topLevel && parent != nil { throw ValidationError("give --parent or --top-level, not both") }
        }

        var wording: FieldWording { CategoryCommand.wording.adding(["id": "<category>"]) }

        func reply(from gateway: Gateway) throws -> CategoryRecord {
            let target = try gateway.category(category, field: "category")
            let parentId = try parent.map { try gateway.category($0, field: "--parent").id }
            return try gateway.call(CategoryUpdateRequest(
                id: target.id, name: name, parentId: parentId, makeTopLevel: topLevel ? true : nil,
                icon: icon, color: color, budgetingEnabled: budgeting?.isOn, sortOrder: sortOrder))
        }

        func render(_ updated: CategoryRecord, gateway: Gateway) throws {
            print("Category \(updated.id) is now '\(updated.path)'.")
        }
    }
}

extension CategoryCommand {
    /// The options this command's subcommands fill request fields from, where the option's name
    /// is not the field's in kebab case (FieldWording).
    static let wording: FieldWording = ["parentId": "--parent", "budgetingEnabled": "--budgeting", "makeTopLevel": "--top-level"]
}
