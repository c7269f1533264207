import FoundationEssentials
import LedgerlyCore
import LedgerlyProtocol

/// Manual assets and liabilities as people type them: by name (any case) or id. Looked up in the
/// store's lists with archived ones included (an archived asset can still be revalued to 0), so
/// an unknown one is refused naming the argument with what there is, before a request with a
/// made-up id is sent.
extension Gateway {
    /// A name first, then an id: an asset called "2024" is found by its name.
    func manualAsset(_ reference: String, field: String = "<asset>") throws -> ManualAssetRecord {
        let assets = try call(ManualAssetListRequest(includeArchived: true)).assets
        if let match = assets.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match }
        if let id = Int64(reference), let match = assets.first(where: { $0.id == id }) { return match }
        let names = assets.filter { !$0.archived }.map(\.name).joined(separator: ", ")
        throw CLIFailure(
            message: "\(field): no asset '\(reference)'" + (names.isEmpty ? "; add one with `ledgerly asset add House --value 250000`" : " (assets: \(names))"),
            status: .refused)
    }

    func liability(_ reference: String, field: String = "<liability>") throws -> LiabilityRecord {
        let liabilities = try call(LiabilityListRequest(includeArchived: true)).liabilities
        if let match = liabilities.first(where: { $0.name.equalsIgnoringCase(reference) }) { return match }
        if let id = Int64(reference), let match = liabilities.first(where: { $0.id == id }) { return match }
        let names = liabilities.filter { !$0.archived }.map(\.name).joined(separator: ", ")
        throw CLIFailure(
            message: "\(field): no liability '\(reference)'"
                + (names.isEmpty ? "; add one with `ledgerly liability add Mortgage --balance 180000 --type mortgage`" : " (liabilities: \(names))"),
            status: .refused)
    }
}
