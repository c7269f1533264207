/// A request's wire name (`wallet.create`). The reply's type is the request's plus `.ok`, or `error`.
///
/// Each request type names its own (`RequestBody.messageType`), and each service's route table
/// says which it answers: to find where a message is handled, search for its name in quotes,
/// which leads to its request type, then for that type in a `…Routes` file.
public struct MessageType: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var replyType: String { rawValue + ".ok" }
    public var description: String { rawValue }

    public static func < (lhs: MessageType, rhs: MessageType) -> Bool { lhs.rawValue < rhs.rawValue }
}
