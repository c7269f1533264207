/// A request body: the single source of truth for its message. It names its wire type and its
/// reply's body type, and by refining `ReadRequest` or `WriteRequest` says whether it changes the
/// ledger; routers, clients and tests read these facts from the type instead of keeping lists.
public protocol RequestBody: Codable, Sendable {
    associatedtype Reply: Codable & Sendable
    static var messageType: MessageType { get }
    /// Writes carry an idempotency `key` and are applied at most once per key (PROTOCOL.md §5).
    /// Given by `ReadRequest` and `WriteRequest`; a request type adopts exactly one of them.
    static var isWrite: Bool { get }
    /// Whether the store answers it before setup is complete (PROTOCOL.md §7). False unless the
    /// type says otherwise.
    static var allowedBeforeSetup: Bool { get }
}

extension RequestBody {
    public static var allowedBeforeSetup: Bool { false }

    /// The reply body's type, as an existential, for tests that walk every message.
    public static var replyBody: any (Codable & Sendable).Type { Reply.self }
}

/// A request that only reads: no key needed, never recorded in the idempotency ledger.
public protocol ReadRequest: RequestBody {}

extension ReadRequest {
    public static var isWrite: Bool { false }
}

/// A request that changes the ledger: needs an idempotency key; the store applies it inside one
/// SQL transaction with its change events and the key's reply.
public protocol WriteRequest: RequestBody {}

extension WriteRequest {
    public static var isWrite: Bool { true }
}
