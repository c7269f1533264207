/// A browser paired with `ledgerly web pair` (D594): what `ledgerly web devices` lists. The token
/// it holds is never stored: its file is named by the token's SHA-256, so the home tells which
/// devices exist but holds nothing a thief could present.
public struct PairedDevice: Codable, Sendable, Equatable {
    /// Short and random, what `ledgerly web revoke ID` takes.
    public let id: String
    /// What the person typed on the pairing page, else what the browser calls itself.
    public let name: String
    /// The browser's User-Agent at pairing, as sent (cut at 200 characters).
    public let userAgent: String
    /// Unix seconds.
    public let pairedAt: Int64
    /// Unix seconds of its newest request seen (the file's modification time, moved at most
    /// once a minute); not stored in the file.
    public var lastSeenAt: Int64

    public init(id: String, name: String, userAgent: String, pairedAt: Int64, lastSeenAt: Int64) {
        self.id = id
        self.name = name
        self.userAgent = userAgent
        self.pairedAt = pairedAt
        self.lastSeenAt = lastSeenAt
    }

    enum CodingKeys: String, CodingKey { case id, name, userAgent, pairedAt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        userAgent = try container.decode(String.self, forKey: .userAgent)
        pairedAt = try container.decode(Int64.self, forKey: .pairedAt)
        lastSeenAt = pairedAt
    }
}
