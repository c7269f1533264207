import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// Investment accounts and assets as people type them: an account by id or name, an asset by
/// symbol or id. Looked up in the store's lists, so an unknown one is refused naming the option
/// with what there is, before a request with a made-up id is sent.
extension Gateway {
    func investAccount(_ reference: String, field: String = "--account") throws -> InvestAccountRecord {
        let accounts = try call(InvestAccountListRequest(includeArchived: true)).accounts
        if let id = Int64(reference), let match = accounts.first(where: { $0.id == id }) { return match }
        if let match = accounts.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match }
        let names = accounts.filter { !$0.archived }.map(\.name).joined(separator: ", ")
        throw CLIFailure(message: "\(field): no investment account '\(reference)'" + (names.isEmpty ? "; add one with `ledgerly invest account add`" : " (accounts: \(names))"), status: .refused)
    }

    /// A symbol first (symbols are unique regardless of case), then an id: a numeric ticker
    /// ("7203") is a symbol before it is an id.
    func asset(_ reference: String, field: String = "<symbol>") throws -> AssetRecord {
        let assets = try call(AssetListRequest()).assets
        if let match = assets.first(where: { $0.symbol.equalsIgnoringCase(reference) }) { return match }
        if let id = Int64(reference), let match = assets.first(where: { $0.id == id }) { return match }
        throw CLIFailure(message: "\(field): no asset '\(reference)'; add it with `ledgerly invest asset add \(reference.uppercased()) --type stock --currency USD` (see `ledgerly invest asset list`)", status: .refused)
    }

    /// Account id → name, to show names where the store's records carry ids.
    func investAccountNames() throws -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: try call(InvestAccountListRequest(includeArchived: true)).accounts.map { ($0.id, $0.name) })
    }
}
