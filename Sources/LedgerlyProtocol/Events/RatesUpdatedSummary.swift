/// The `data` of a `rates.updated` event: which rates changed, without listing a whole batch
/// (an import of the ECB's history is hundreds of thousands of rates in one event).
public struct RatesUpdatedSummary: Codable, Hashable, Sendable {
    public var profileId: Int64
    public var source: String
    /// New (or corrected) rates; rates re-delivered with the same value are counted in `confirmed`.
    public var stored: Int
    public var confirmed: Int
    /// The pairs stored or confirmed, as "BASE/QUOTE", at most 100 (`truncated` says when there were more).
    public var pairs: [String]
    public var truncated: Bool
    public var newestAsOf: String?

    public init(profileId: Int64, source: String, stored: Int, confirmed: Int, pairs: [String], truncated: Bool, newestAsOf: String?) {
        self.profileId = profileId
        self.source = source
        self.stored = stored
        self.confirmed = confirmed
        self.pairs = pairs
        self.truncated = truncated
        self.newestAsOf = newestAsOf
    }
}
