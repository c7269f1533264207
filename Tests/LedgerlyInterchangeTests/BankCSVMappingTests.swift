import Foundation
import LedgerlyCore
import LedgerlyInterchange
import Testing

@Suite struct BankCSVMappingTests {
    @Test func decodesAFullMapping() throws {
        let json = """
        {
          "delimiter": ";", "header": true, "skipLines": 4,
          "date": "Buchungstag", "dateFormat": "DD.MM.YYYY",
          "amount": 5, "decimalSeparator": ",", "thousandsSeparator": ".",
          "currency": "Währung", "negativeIsExpense": false,
          "description": ["Auftraggeber", 4],
          "rules": [
            { "contains": "lidl", "category": "Food : Groceries", "tags": ["groceries"] },
            { "regex": "^ALDI", "category": "Food:Groceries", "kind": "expense" },
            { "contains": "paypal", "tags": ["paypal"] }
          ]
        }
        """
        let mapping = try decodeMapping(json).get()
        #expect(mapping.delimiter == .semicolon)
        #expect(mapping.skipLines == 4)
        #expect(mapping.date == .name("Buchungstag"))
        #expect(mapping.amounts == .signed(.index(5)))
        #expect(mapping.currency == .name("Währung"))
        #expect(mapping.descriptionColumns == [.name("Auftraggeber"), .index(4)])
        #expect(mapping.dateFormat == "DD.MM.YYYY")
        #expect(mapping.decimalSeparator == ",")
        #expect(mapping.thousandsSeparator == ".")
        #expect(mapping.negativeIsExpense == false)
        #expect(mapping.rules.count == 3)
        #expect(mapping.rules[1] == BankCSVRule(match: .regex("^ALDI"), category: "Food:Groceries", kind: .expense))

        // Encoding and decoding again gives the same mapping.
        let again = try JSONDecoder().decode(BankCSVMapping.self, from: JSONEncoder().encode(mapping))
        #expect(again == mapping)
    }

    @Test func defaultsForAMinimalMapping() throws {
        let mapping = try decodeMapping(#"{"date": "Date", "debit": "Out", "credit": "In", "description": "Text", "delimiter": "tab"}"#).get()
        #expect(mapping.delimiter == .tab)
        #expect(mapping.header)
        #expect(mapping.skipLines == 0)
        #expect(mapping.amounts == .debitCredit(debit: .name("Out"), credit: .name("In")))
        #expect(mapping.descriptionColumns == [.name("Text")])
        #expect(mapping.dateFormat == "YYYY-MM-DD")
        #expect(mapping.decimalSeparator == ".")
        #expect(mapping.thousandsSeparator == nil)
        #expect(mapping.negativeIsExpense)
        #expect(mapping.rules.isEmpty)
    }

    @Test func unknownKeysAreErrorsNamingTheKey() {
        let top = decodeMapping(#"{"date": "Date", "amount": "Amount", "description": "Text", "thousandSeparator": "."}"#)
        guard case .failure(let error) = top else { Issue.record("accepted an unknown key"); return }
        #expect(error.line == nil)
        #expect(error.message.contains("unknown key \"thousandSeparator\""))
        #expect(error.message.contains("\"thousandsSeparator\""))

        let inRule = decodeMapping(#"{"date": "Date", "amount": "Amount", "description": "Text", "rules": [{"contains": "a", "tags": ["x"]}, {"contains": "b", "catgory": "Food"}]}"#)
        guard case .failure(let ruleError) = inRule else { Issue.record("accepted an unknown rule key"); return }
        #expect(ruleError.message.contains("unknown key \"catgory\""))
        #expect(ruleError.message.contains("rules[1]"))
    }

    @Test(arguments: [
        (#"{"amount": "A", "description": "T"}"#, "missing key \"date\""),
        (#"{"date": "D", "description": "T"}"#, "either \"amount\""),
        (#"{"date": "D", "amount": "A", "debit": "X", "description": "T"}"#, "either \"amount\""),
        (#"{"date": "D", "debit": "X", "description": "T"}"#, "\"debit\" alone"),
        (#"{"date": "D", "amount": "A"}"#, "missing key \"description\""),
        (#"{"date": "D", "amount": "A", "description": "T", "delimiter": "|"}"#, "delimiter \"|\""),
        (#"{"date": "D", "amount": "A", "description": "T", "dateFormat": "DD/MM/YYYY hh"}"#, "is not a token"),
        (#"{"date": "D", "amount": "A", "description": "T", "dateFormat": "DD/MM"}"#, "must contain the year"),
        (#"{"date": "D", "amount": "A", "description": "T", "dateFormat": "DMYYYY"}"#, "ambiguous"),
        (#"{"date": "D", "amount": "A", "description": "T", "decimalSeparator": ","}"#, ""),
        (#"{"date": "D", "amount": "A", "description": "T", "decimalSeparator": ",", "thousandsSeparator": ","}"#, "both \",\""),
        (#"{"date": "D", "amount": "A", "description": "T", "thousandsSeparator": "_"}"#, "thousandsSeparator \"_\""),
        (#"{"date": "D", "amount": 0, "description": "T"}"#, "count from 1"),
        (#"{"date": "D", "amount": "A", "description": "T", "header": false}"#, "give its number"),
        (#"{"date": "D", "amount": "A", "description": "T", "header": "yes"}"#, "header: expected true or false"),
        (#"{"date": "D", "amount": "A", "description": "T", "skipLines": -1}"#, "skipLines"),
        (#"{"date": "D", "amount": "A", "description": []}"#, "at least one column"),
        (#"{"date": "D", "amount": "A", "description": "T", "rules": [{"regex": "(", "category": "X"}]}"#, "not valid"),
        (#"{"date": "D", "amount": "A", "description": "T", "rules": [{"contains": "x"}]}"#, "neither \"category\" nor \"tags\""),
        (#"{"date": "D", "amount": "A", "description": "T", "rules": [{"contains": "x", "regex": "y", "tags": ["t"]}]}"#, "exactly one of"),
        (#"{"date": "D", "amount": "A", "description": "T", "rules": [{"contains": "x", "category": "Food::"}]}"#, "not a path"),
        (#"{"date": "D", "amount": "A", "description": "T", "rules": [{"contains": "x", "tags": ["t"], "kind": "transfer"}]}"#, "kind \"transfer\""),
        (#"{"date": "D", "amount": "A", "description": "T""#, "not valid JSON"),
    ])
    func invalidMappings(json: String, message: String) {
        let result = decodeMapping(json)
        if message.isEmpty {
            #expect((try? result.get()) != nil)
            return
        }
        guard case .failure(let error) = result else { Issue.record("accepted \(json)"); return }
        #expect(error.message.hasPrefix("mapping: "))
        #expect(error.message.contains(message), "\(error.message)")
    }
}
