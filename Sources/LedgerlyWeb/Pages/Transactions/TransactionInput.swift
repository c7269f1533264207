import LedgerlyCore
import LedgerlyProtocol

/// A transaction form's fields as typed, kept to fill the form again beside an error; and the
/// store's field names mapped to the form's, so an error shows beside the field it is about.
struct TransactionInput: Sendable, Equatable {
    enum Kind: String, CaseIterable, Sendable { case expense, income, transfer }

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
    }

    /// Whether this edit asks to take `record`'s category away, which `tx.update` cannot do (no
    /// category sent keeps the one it has): refused, not silently ignored. Transfers' categories
    /// are not edited.
    func removesCategory(of record: TransactionRecord) -> Bool {
        record.transfer == nil && record.categoryId != nil && Int64(category) == nil
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
        case "categoryId", "splits": "category"
        case "amount", "currency", "date", "tags", "notes", "rate": field == "rate" ? "currency" : field
        case "kind": "kind"
        default: nil
        }
    }
}
