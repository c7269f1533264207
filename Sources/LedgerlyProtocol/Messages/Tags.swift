public struct TagRecord: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// `tag.create`
public struct TagCreateRequest: WriteRequest, Hashable {
    public typealias Reply = TagRecord
    public static let messageType: MessageType = "tag.create"
    public var name: String
    public init(name: String) { self.name = name }
}

/// `tag.list`
public struct TagListRequest: ReadRequest, Hashable {
    public typealias Reply = TagListReply
    public static let messageType: MessageType = "tag.list"
    public init() {}
}

public struct TagListReply: Codable, Hashable, Sendable {
    public var tags: [TagRecord]
    public init(tags: [TagRecord]) { self.tags = tags }
}
