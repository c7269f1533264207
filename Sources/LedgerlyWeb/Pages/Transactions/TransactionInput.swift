import LedgerlyCore
import LedgerlyProtocol

/// A transaction form's fields as typed, kept to fill the form again beside an error; and the
/// store's field names mapped to the form's, so an error shows beside the field it is about.
/// Split lines are numbered fields (`split_amount_0`, `split_category_0`, `split_memo_0`, …) so
/// the form works without JavaScript; a line left wholly blank is not sent (D605).
struct TransactionInput: Sendable, Equatable {
    enum Kind: String, CaseIterable, Sendable { case expense, income, transfer }

    /// One split line as typed.
    struct SplitLine: Sendable, Equatable {
        var amount = ""
        var category = ""
        var memo = ""
        var isBlank: Bool { amount.isEmpty && category.isEmpty && memo.trimmingWhitespace.isEmpty }
    }

    /// Blank split lines a form starts with, and how many "More split lines" adds (D605).
    static let blankSplitLines = 3
    /// The store's most parts of a split (PROTOCOL.md §8): the form offers no more lines.
    static let maximumSplitLines = 100

    var kind: Kind = .expense
    var wallet = ""
    var toWallet = ""
    var amount = ""
    var toAmount = ""
    var currency = ""
    var date = ""
    var category = ""
    var tags = ""
    var notes = ""
    /// The one-off rate (`tx.create`'s `rate`, the CLI's `tx add --rate`), as typed.
    var rate = ""
    var splits: [SplitLine] = []

    init() {}

    init(_ form: FormFields) {
        kind = form["kind"].flatMap(Kind.init(rawValue:)) ?? .expense
        wallet = form["wallet"] ?? ""
        toWallet = form["to_wallet"] ?? ""
        amount = form.trimmed("amount") ?? ""
        toAmount = form.trimmed("to_amount") ?? ""
        currency = form.trimmed("currency") ?? ""
        date = form.trimmed("date") ?? ""
        category = form["category"] ?? ""
        tags = form["tags"] ?? ""
        notes = form["notes"] ?? ""
        rate = form.trimmed("rate") ?? ""
        let shown = min(Int(form["split_lines"] ?? "") ?? 0, Self.maximumSplitLines)
        splits = (0..<max(shown, 0)).map { line in
            SplitLine(amount: form.trimmed("split_amount_\(line)") ?? "", category: form["split_category_\(line)"] ?? "", memo: form["split_memo_\(line)"] ?? "")
        }
    }

    init(_ record: TransactionRecord) {
        kind = record.transfer != nil ? .transfer : (record.kind == .income ? .income : .expense)
        wallet = String(record.walletId)
        toWallet = record.transfer.map { String($0.counterpartyWalletId) } ?? ""
        amount = record.amount
        currency = record.currency
        date = record.date
        category = record.categoryId.map(String.init) ?? ""
        tags = record.tags.joined(separator: ", ")
        notes = record.notes ?? ""
        splits = record.splits.map { SplitLine(amount: $0.amount, category: String($0.categoryId), memo: $0.memo ?? "") }
    }

    /// The lines the form shows: those kept (typed, or the record's parts), at least
    /// `blankSplitLines`, `extra` more when asked for, never more than the store accepts. Blank
    /// lines stay where they were, so an error keeps its line.
    func splitLinesShown(extra: Int = 0) -> [SplitLine] {
        let count = min(max(splits.count, Self.blankSplitLines) + extra, Self.maximumSplitLines)
        return Array(splits.prefix(count)) + Array(repeating: SplitLine(), count: max(count - splits.count, 0))
    }

    /// The form lines that are sent as split parts, in order: `filledSplitLines[part]` is the
    /// form line of the store's `body.splits[part]`.
    var filledSplitLines: [Int] { splits.indices.filter { !splits[$0].isBlank } }

    /// The split parts to send; nil when a filled line has no category (`missingCategoryLine`).
    var splitParts: [SplitPart]? {
        var parts: [SplitPart] = []
        for line in filledSplitLines {
            guard let category = Int64(splits[line].category) else { return nil }
            let memo = splits[line].memo
            parts.append(SplitPart(amount: splits[line].amount, categoryId: category, memo: memo.trimmingWhitespace.isEmpty ? nil : memo))
        }
        return parts
    }

    /// The first filled split line without a category: refused beside it (a part needs one).
    var missingCategoryLine: Int? { filledSplitLines.first { Int64(splits[$0].category) == nil } }

    /// Whether this edit asks to take `record`'s category away, which `tx.update` cannot do (no
    /// category sent keeps the one it has): refused, not silently ignored. Transfers' categories
    /// are not edited.
    /// New split lines take the category away as `tx.update` does (its parts have their own).
    func removesCategory(of record: TransactionRecord) -> Bool {
        record.transfer == nil && record.categoryId != nil && Int64(category) == nil && filledSplitLines.isEmpty
    }

    /// The form field a store error's `field` is about, a split part's error on its own line
    /// (`body.splits[1].amount` → `split_4` when the fourth line was left blank); nil for none.
    func errorField(forStoreField field: String?) -> String? {
        if let field, field.hasPrefix("body.splits["), let close = field.firstIndex(of: "]") {
            let index = field[field.index(field.startIndex, offsetBy: "body.splits[".count)..<close]
            if let part = Int(index), filledSplitLines.indices.contains(part) { return "split_\(filledSplitLines[part])" }
        }
        return Self.formField(forStoreField: field)
    }

    /// Tag names, split at commas, blanks dropped.
    var tagList: [String] {
        tags.split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
    }

    var notesOrNil: String? { notes.trimmingWhitespace.isEmpty ? nil : notes }

    /// The form field a store error's `field` is about ("body.tags[1]" → "tags"); nil for none.
    static func formField(forStoreField field: String?) -> String? {
        guard var field else { return nil }
        // The store names a field by its path in the request: "body.amount".
        if field.hasPrefix("body.") { field.removeFirst("body.".count) }
        if let bracket = field.firstIndex(of: "[") { field = String(field[..<bracket]) }
        if let dot = field.firstIndex(of: ".") { field = String(field[..<dot]) }
        return switch field {
        case "walletId", "fromWalletId": "wallet"
        case "toWalletId": "to_wallet"
        case "toAmount": "to_amount"
        case "categoryId": "category"
        case "splits": "splits"
        case "amount", "currency", "date", "tags", "notes", "rate": field
        case "kind": "kind"
        default: nil
        }
    }
}
