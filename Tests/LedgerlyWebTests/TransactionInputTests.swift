import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyWeb
import Testing

/// The transaction form's split lines and rate as read from a post (D605-D608): blank lines not
/// sent, a store error on a part shown on the form line it came from, the lines a form shows.
@Suite struct TransactionInputTests {
    static func record(category: Int64?, splits: [SplitPart]) -> TransactionRecord {
        TransactionRecord(id: 7, kind: .expense, walletId: 1, amount: "84.30", currency: "EUR", categoryId: category, notes: nil, date: "2026-12-01", tags: [],
                          attachmentPath: nil, transfer: nil, splits: splits, walletAmount: "84.30", baseAmount: nil, baseCurrency: nil, conversion: nil,
                          baseConversion: nil, createdAt: "", updatedAt: "")
    }

    /// Lines 0 and 2 filled, line 1 blank: part 1 is form line 2.
    static let posted = TransactionInput(FormFields([
        ("split_lines", "3"), ("split_amount_0", " 60.00 "), ("split_category_0", "4"), ("split_memo_0", ""),
        ("split_amount_1", ""), ("split_category_1", ""), ("split_memo_1", " "),
        ("split_amount_2", "24.30"), ("split_category_2", "5"), ("split_memo_2", "<b>x</b>"), ("rate", " 0.9 "),
    ]))

    @Test func blankLinesAreNotSentAndPartsKeepTheirLines() {
        let input = Self.posted
        #expect(input.rate == "0.9")
        #expect(input.filledSplitLines == [0, 2])
        #expect(input.splitParts == [SplitPart(amount: "60.00", categoryId: 4), SplitPart(amount: "24.30", categoryId: 5, memo: "<b>x</b>")])
        #expect(input.errorField(forStoreField: "body.splits[1].amount") == "split_2")
        #expect(input.errorField(forStoreField: "body.splits[0].categoryId") == "split_0")
        #expect(input.errorField(forStoreField: "body.splits") == "splits")
        #expect(input.errorField(forStoreField: "body.rate") == "rate")
        #expect(input.errorField(forStoreField: "body.categoryId") == "category")
        // A part the form did not send (out of range) falls back to the lines as a whole.
        #expect(input.errorField(forStoreField: "body.splits[9].amount") == "splits")
    }

    @Test func aLineWithoutACategoryIsNamed() {
        let input = TransactionInput(FormFields([("split_lines", "2"), ("split_amount_0", "5"), ("split_category_0", "3"), ("split_amount_1", "5")]))
        #expect(input.missingCategoryLine == 1)
        #expect(input.splitParts == nil)
    }

    @Test func theLinesShown() {
        #expect(TransactionInput().splitLinesShown().count == TransactionInput.blankSplitLines)
        #expect(Self.posted.splitLinesShown(extra: 3).count == 6)
        #expect(Self.posted.splitLinesShown(extra: 3)[2].amount == "24.30")
        let many = TransactionInput(FormFields([("split_lines", "500")]))
        #expect(many.splits.count == TransactionInput.maximumSplitLines)
        #expect(many.splitLinesShown(extra: 3).count == TransactionInput.maximumSplitLines)
        let edited = TransactionInput(Self.record(category: nil, splits: [SplitPart(amount: "60.00", categoryId: 4), SplitPart(amount: "24.30", categoryId: 5, memo: "m")]))
        #expect(edited.splitLinesShown().map(\.amount) == ["60.00", "24.30", ""])
        #expect(edited.splitLinesShown()[1].memo == "m")
    }

    /// Split lines take a category away as tx.update does; without them a blank category is
    /// still refused (the store would keep the old one).
    @Test func splitLinesMayReplaceACategory() {
        let categorised = Self.record(category: 3, splits: [])
        #expect(Self.posted.removesCategory(of: categorised) == false)
        #expect(TransactionInput(FormFields([("split_lines", "3")])).removesCategory(of: categorised))
    }
}
