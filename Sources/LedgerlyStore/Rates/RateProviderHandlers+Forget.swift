import GRDB
import LedgerlyProtocol

extension RateProviderHandlers {
    /// `rates.provider.forget`: removes a provider's kept status (publishing
    /// `rates.provider.removed` with it); a name the store does not know changes nothing.
    static func forget(_ request: RateProviderForgetRequest, _ context: inout WriteContext) throws -> RateProviderForgetReply {
        guard let row = try RateProviderRow.fetchOne(context.db, key: request.name) else {
            return RateProviderForgetReply(removed: nil)
        }
        let removed = row.record
        try row.delete(context.db)
        try context.record(.rateProviderRemoved, id: removed.name, data: removed)
        return RateProviderForgetReply(removed: removed)
    }
}
