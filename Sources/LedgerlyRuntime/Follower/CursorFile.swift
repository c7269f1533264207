import FoundationEssentials

/// The cursor's file in the subscriber's own state folder (never in the store's database, which
/// only the store opens). Saved by write-then-rename, so a crash leaves the old or the new cursor,
/// never half of one.
public struct CursorFile: Sendable {
    public let url: URL

    public init(home: LedgerlyHome, service: String) {
        url = home.stateDirectory.appendingPathComponent("\(service).cursor.json")
    }

    public func load() -> FollowerCursor {
        guard let data = try? Data(contentsOf: url),
              let cursor = try? JSONDecoder().decode(FollowerCursor.self, from: data)
        else { return FollowerCursor(epoch: nil, seq: 0) }
        return cursor
    }

    public func save(_ cursor: FollowerCursor) throws {
        let data = try JSONEncoder().encode(cursor)
        try data.write(to: url, options: .atomic)
    }
}
