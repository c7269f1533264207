import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// A first session through the CLI, as a person would type it.
    @Suite struct SessionTests {
        @Test func ledgerCommandsBeforeSetupNameTheSetupCommand() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            let result = try harness.cli("wallet", "add", "Checking", "--currency", "EUR")
            #expect(result.status == 2)
            #expect(result.stderr.contains("ledgerly setup"))
            let list = try harness.cli("wallet", "list", "--json")
            #expect(list.status == 2)
        }

        @Test func walletsCategoriesTagsSplitsAndTransfersGiveCorrectBalances() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            let steps: [[String]] = [
                ["wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "1000.00"],
                ["wallet", "add", "Yen", "--currency", "JPY", "--type", "cash", "--starting-balance", "20000"],
                ["wallet", "add", "Savings", "--currency", "EUR"],
                ["category", "add", "Food", "--kind", "expense"],
                ["category", "add", "Groceries", "--parent", "Food"],
                ["category", "add", "Household", "--kind", "expense"],
                ["category", "add", "Salary", "--kind", "income"],
                ["tag", "add", "weekly"],
                ["tx", "add", "--wallet", "Checking", "--amount", "84.30", "--split", "60:Groceries:veg", "--split", "24.30:Household", "--tag", "weekly", "--date", "2026-11-20"],
                ["tx", "add", "--wallet", "Checking", "--amount", "2500", "--kind", "income", "--category", "Salary", "--date", "2026-11-01"],
                ["tx", "add", "--wallet", "Yen", "--amount", "5000", "--category", "Food/Groceries", "--notes", "Ramen"],
                ["tx", "transfer", "--from", "Checking", "--to", "Yen", "--amount", "100", "--to-amount", "16250", "--date", "2026-11-19"],
                ["tx", "transfer", "--from", "Checking", "--to", "Savings", "--amount", "250.50"],
                ["tx", "add", "--wallet", "Savings", "--amount", "0.50", "--category", "Household"],
            ]
            for step in steps {
                let result = try harness.cli(step)
                #expect(result.status == 0, "\(step.joined(separator: " ")): \(result.stderr)")
            }
            let list = try harness.cli("wallet", "list", "--json")
            let wallets = try JSONDecoder().decode(WalletListReply.self, from: Data(list.stdout.utf8)).wallets
            let balances = Dictionary(uniqueKeysWithValues: wallets.map { ($0.name, $0.balance) })
            // 1000 - 84.30 + 2500 - 100 - 250.50; 20000 - 5000 + 16250; 250.50 - 0.50
            #expect(balances == ["Checking": "3065.20", "Yen": "31250", "Savings": "250.00"])

            // Deleting one transfer leg removes both and restores both balances.
            let transfers = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--wallet", "Savings", "--json").stdout.utf8))
            let incoming = try #require(transfers.transactions.first { $0.transfer != nil })
            #expect(try harness.cli("tx", "delete", String(incoming.id)).status == 0)
            let after = try JSONDecoder().decode(WalletListReply.self, from: Data(try harness.cli("wallet", "list", "--json").stdout.utf8)).wallets
            #expect(Dictionary(uniqueKeysWithValues: after.map { ($0.name, $0.balance) }) == ["Checking": "3315.70", "Yen": "31250", "Savings": "-0.50"])

            // Filters: a parent category includes its children and split parts.
            let food = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--category", "Food", "--json").stdout.utf8))
            #expect(food.total == 2)
            let tagged = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--tag", "weekly", "--json").stdout.utf8))
            #expect(tagged.transactions.map(\.amount) == ["84.30"])
            let text = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--text", "ram", "--json").stdout.utf8))
            #expect(text.transactions.map(\.amount) == ["5000"])
            let dated = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--from", "2026-11-01", "--to", "2026-11-19", "--json").stdout.utf8))
            #expect(dated.total == 3)

            // Paging: the hint under a page names the next page, and following it reaches the
            // rest without repeating a transaction.
            let all = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--json").stdout.utf8))
            let first = try harness.cli("tx", "list", "--limit", "2")
            #expect(first.status == 0)
            let hint = try #require(first.stdout.split(separator: "\n").last { $0.contains("next page: --after ") }, "\(first.stdout)")
            let cursor = String(try #require(hint.split(separator: " ").last)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
            let rest = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--after", cursor, "--limit", "100", "--json").stdout.utf8))
            #expect(rest.next == nil)
            #expect(rest.transactions.map(\.id) == Array(all.transactions.map(\.id).dropFirst(2)))
            #expect(try harness.cli("tx", "list", "--after", "yesterday").status == 64)
            #expect(try harness.cli("tx", "list", "--after", cursor, "--offset", "1").status == 64)
        }

        @Test func refusedInputExitsOneAndChangesNothing() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Checking", "--currency", "EUR").status == 0)
            let cases: [[String]] = [
                ["tx", "add", "--wallet", "Checking", "--amount", "12.345"],
                ["tx", "add", "--wallet", "Checking", "--amount", "-5"],
                ["tx", "add", "--wallet", "Checking", "--amount", "1e3"],
                ["tx", "add", "--wallet", "Nowhere", "--amount", "5"],
                ["wallet", "add", "Bad", "--currency", "EU1"],
                ["wallet", "add", "Checking", "--currency", "EUR"],
            ]
            for arguments in cases {
                let result = try harness.cli(arguments)
                #expect(result.status == 1, "\(arguments): \(result.stdout)")
                #expect(result.stderr.hasPrefix("error: "))
            }
            let seq = try #require(harness.status(.store)).lastSeq
            #expect(seq == 2)  // setup.completed, wallet.created

            // Errors name the option to fix, not the protocol field.
            let decimals = try harness.cli("tx", "add", "--wallet", "Checking", "--amount", "12.345")
            #expect(decimals.stderr == "error: --amount: 12.345 has more decimals than EUR allows (2)\n")
            let zero = try harness.cli("tx", "add", "--wallet", "Checking", "--amount", "0")
            #expect(zero.stderr.contains("--amount must be greater than zero"))
            #expect(!zero.stderr.contains("body."))
        }
    }
}
