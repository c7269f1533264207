import Foundation
import LedgerlyProtocol
import LedgerlyTesting
import Testing

/// `ledgerly category show` and the `category.get` it sends: the message type added to show what
/// a new message touches (docs/architecture.md, "How to add a message type").
@Suite(.serialized) struct CategoryShowTests {
    @Test func aCategoryIsShownByIdPathOrNameAndAnUnknownIdIsRefusedNamingTheArgument() throws {
        let (_, ledgerly) = try CommandLineTests.setUpStore()
        #expect(ledgerly("category", "add", "Food", "--kind", "expense").status == 0)
        let added = ledgerly("category", "add", "Groceries", "--parent", "Food", "--color", "#33AA55", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let groceries = try JSONDecoder().decode(CategoryRecord.self, from: Data(added.stdout.utf8))

        for reference in [String(groceries.id), "Food/Groceries", "groceries"] {
            let shown = ledgerly("category", "show", reference, "--json")
            #expect(shown.status == 0, "\(reference): \(shown.stderr)")
            #expect(try JSONDecoder().decode(CategoryRecord.self, from: Data(shown.stdout.utf8)) == groceries, "\(reference)")
        }
        let text = ledgerly("category", "show", "Groceries")
        #expect(text.stdout.hasPrefix("Category \(groceries.id): Food/Groceries\n"), "\(text.stdout)")
        #expect(text.stdout.contains("color      #33AA55"))

        // The store's not_found for `body.id` reads as the positional argument.
        let unknown = ledgerly("category", "show", "999")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("error: <category>: there is no category 999"), "\(unknown.stderr)")
    }
}
