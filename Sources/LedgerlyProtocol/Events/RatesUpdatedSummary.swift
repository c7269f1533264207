/// The `data` of a `rates.updated` event: which rates changed, without listing a whole batch
/// (an import of the ECB's history is hundreds of thousands of rates in one event).
public struct RatesUpdatedSummary: Codable, Hashable, Sendable {
    public var profileId: Int64
    public var source: String
    public var stored: Int
    /// The pairs stored, as "BASE/QUOTE", at most 100 (`truncated` says when there were more).
    public var pairs: [String]
    public var truncated: Bool
    public var newestAsOf: String?

    public init(profileId: Int64, source: String, stored: Int, pairs: [String], truncated: Bool, newestAsOf: String?) {
        self.profileId = profileId
        self.source = source
        self.stored = stored
        self.pairs = pairs
        self.truncated = truncated
        self.newestAsOf = newestAsOf
    }
}
