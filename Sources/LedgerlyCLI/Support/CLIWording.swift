import Foundation
import LedgerlyProtocol

/// Rewords the store's error messages for the command line: protocol field paths such as
/// `body.walletId` or `body.splits[1].amount` become the options a person typed (`--wallet`,
/// `--split 2`), so an error points at the argument to fix. A command names the fields it fills
/// from positional arguments itself (`"body.amount": "<amount>"`); a field's meaning is never
/// guessed across commands (`from` is a currency for `convert`, a month for the reports).
enum CLIWording {
    /// Protocol body fields whose option has another name than the field.
    static let options: [String: String] = [
        "walletId": "--wallet", "categoryId": "--category", "fromWalletId": "--from", "toWalletId": "--to",
        "parentId": "--parent", "splits": "--split", "tags": "--tag", "attachmentPath": "--attachment",
        "priceRefreshIntervalMinutes": "--price-refresh-minutes",
        "staleFiatMinutes": "--stale-fiat-minutes", "staleCryptoMinutes": "--stale-crypto-minutes", "cloudSync": "--sync", "includeInNetWorth": "--net-worth",
        "budgetingEnabled": "--budgeting", "makeTopLevel": "--top-level",
        "asOf": "--at", "profileId": "--profile", "customOverride": "--override",
    ]

    static func message(_ error: ErrorBody, arguments: [String: String] = [:]) -> String {
        var text = error.message
        // Longest paths first, so "body.splits[1].amount" is replaced before "body.splits".
        let paths = Set(([error.field].compactMap { $0 } + fieldPaths(in: text)).filter { $0.hasPrefix("body.") })
        for path in paths.sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: path, with: option(for: path, arguments: arguments))
        }
        // Say which option is at fault when the sentence does not already.
        if let field = error.field, field.hasPrefix("body."), !text.contains(option(for: field, arguments: arguments)) {
            text = "\(option(for: field, arguments: arguments)): \(text)"
        }
        return text
    }

    /// The option for a body path: `body.splits[1].amount` → `--split 2`, `body.toAmount` → `--to-amount`.
    static func option(for path: String, arguments: [String: String] = [:]) -> String {
        if let argument = arguments[path] { return argument }
        var name = String(path.dropFirst("body.".count))
        var position = ""
        if let bracket = name.firstIndex(of: "["), let close = name.firstIndex(of: "]"), let index = Int(name[name.index(after: bracket)..<close]) {
            position = " \(index + 1)"
            name = String(name[..<bracket])
        } else if let dot = name.firstIndex(of: ".") {
            name = String(name[..<dot])
        }
        let option = options[name] ?? "--" + name.reduce(into: "") { result, character in
            result += character.isUppercase ? "-" + character.lowercased() : String(character)
        }
        return option + position
    }

    private static func fieldPaths(in text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "'" || $0 == "," || $0 == ":" || $0 == ";" || $0 == "(" || $0 == ")" })
            .map(String.init).filter { $0.hasPrefix("body.") }
    }
}
