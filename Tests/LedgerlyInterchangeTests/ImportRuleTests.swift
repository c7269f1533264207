import LedgerlyCore
import LedgerlyInterchange
import Testing

@Suite struct ImportRuleTests {
    private func categorise(_ descriptions: [String], _ rules: [BankCSVRule], amount: String = "-1") throws -> [BankStatementRow] {
        let body = descriptions.map { "2026-03-01,\"\($0)\",\(amount)\n" }.joined()
        return try BankCSVImport.parse(text: "Date,Description,Amount\n" + body, mapping: signedMapping(rules: rules), defaultCurrency: "EUR")
    }

    @Test func containsIsCaseInsensitive() throws {
        let rows = try categorise(["LIDL BERLIN 1234", "Lidl", "Aldi"], [BankCSVRule(match: .contains("lidl"), category: "Food:Groceries", tags: ["groceries"])])
        #expect(rows.map(\.categoryPath) == ["Food:Groceries", "Food:Groceries", nil])
        #expect(rows.map(\.tags) == [["groceries"], ["groceries"], []])
    }

    @Test func regexIsCaseInsensitiveAndAnchored() throws {
        let rows = try categorise(["ALDI SUED", "aldi nord", "Card ALDI"], [BankCSVRule(match: .regex("^ALDI\\s"), category: "Food")])
        #expect(rows.map(\.categoryPath) == ["Food", "Food", nil])
    }

    @Test func firstMatchingCategoryWinsAndTagOnlyRulesAlwaysAdd() throws {
        let rules = [
            BankCSVRule(match: .contains("paypal"), tags: ["paypal"]),
            BankCSVRule(match: .contains("amazon prime"), category: "Subscriptions", tags: ["prime"]),
            BankCSVRule(match: .contains("amazon"), category: "Shopping", tags: ["online"]),
            BankCSVRule(match: .regex("prime|video"), tags: ["video", "PayPal"]),
        ]
        let rows = try categorise(["PAYPAL *AMAZON PRIME", "Amazon Marketplace", "paypal spotify", "Cinema"], rules)
        #expect(rows.map(\.categoryPath) == ["Subscriptions", "Shopping", nil, nil])
        #expect(rows.map(\.tags) == [["paypal", "prime", "video"], ["online"], ["paypal"], []])
    }

    @Test func kindIsAConditionNotAnOverride() throws {
        let rules = [
            BankCSVRule(match: .contains("shop"), category: "Refunds", kind: .income),
            BankCSVRule(match: .contains("shop"), category: "Shopping"),
        ]
        let expense = try categorise(["Shop"], rules, amount: "-5")
        let income = try categorise(["Shop"], rules, amount: "5")
        #expect(expense.map(\.categoryPath) == ["Shopping"])
        #expect(expense.map(\.kind) == [.expense])
        #expect(income.map(\.categoryPath) == ["Refunds"])
    }

    @Test func categoryPathIsNormalised() throws {
        let rows = try categorise(["x"], [BankCSVRule(match: .contains("X"), category: " Food :  Groceries ", tags: [" weekly "])])
        #expect(rows.first?.categoryPath == "Food:Groceries")
        #expect(rows.first?.tags == ["weekly"])
    }

    @Test func invalidRulesAreRefusedBeforeAnyRow() {
        for rule in [
            BankCSVRule(match: .regex("(unclosed"), category: "X"),
            BankCSVRule(match: .contains("  "), category: "X"),
            BankCSVRule(match: .contains("x")),
            BankCSVRule(match: .contains("x"), category: "A::B"),
        ] {
            let error = importError("Date,Description,Amount\n2026-03-01,x,1\n", signedMapping(rules: [rule]))
            #expect(error?.line == nil)
            #expect(error?.message.hasPrefix("rule 1: ") == true, "\(String(describing: error))")
        }
    }
}
