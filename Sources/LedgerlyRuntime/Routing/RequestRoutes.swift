import LedgerlyCore
import LedgerlyProtocol

/// The request types one service answers, by wire name, each with what the service does with it.
///
/// Every service routes through one of these, so the first steps after the envelope (an unknown
/// type, a write without a key) fail the same way everywhere. A service adds each request type
/// once; `duplicates` keeps any second registration so a test, and the service at start, can
/// refuse a table that lists one twice instead of silently answering with the first.
public struct RequestRoutes<Handler: Sendable>: Sendable {
    public struct Route: Sendable {
        public let request: any RequestBody.Type
        public let handler: Handler
    }

    /// The service these routes belong to, as errors name it.
    public let service: String
    private var routes: [MessageType: Route] = [:]
    /// Types this service does not answer but knows who does: the error says where to go.
    private var elsewhere: [MessageType: (request: any RequestBody.Type, answeredBy: String)] = [:]
    public private(set) var duplicates: [MessageType] = []

    public init(service: String) { self.service = service }

    public mutating func add(_ request: any RequestBody.Type, _ handler: Handler) {
        let type = request.messageType
        guard routes[type] == nil, elsewhere[type] == nil else { return duplicates.append(type) }
        routes[type] = Route(request: request, handler: handler)
    }

    /// Marks a request type as answered by another service, described by `answeredBy`.
    public mutating func answeredElsewhere(_ request: any RequestBody.Type, answeredBy: String) {
        let type = request.messageType
        guard routes[type] == nil, elsewhere[type] == nil else { return duplicates.append(type) }
        elsewhere[type] = (request, answeredBy)
    }

    /// The wire names this service answers, sorted.
    public var messageTypes: [MessageType] { routes.keys.sorted() }

    /// The request types this service answers.
    public var requestTypes: [any RequestBody.Type] { messageTypes.compactMap { routes[$0]?.request } }

    /// The request types this service answers or knows another service answers.
    public var knownRequestTypes: [any RequestBody.Type] {
        (routes.values.map(\.request) + elsewhere.values.map(\.request)).sorted { $0.messageType < $1.messageType }
    }

    /// The route for a request, after the checks every service makes before decoding its body
    /// (PROTOCOL.md §10, steps 6 and 7): a known type, and a key on a write.
    public func route(for header: EnvelopeHeader) throws(ErrorBody) -> Route {
        let type = MessageType(rawValue: header.type)
        guard let route = routes[type] else {
            if let answeredBy = elsewhere[type]?.answeredBy {
                throw ErrorBody(code: .unknownType, message: "\(type) is answered by \(answeredBy), not by \(service)", field: "type")
            }
            throw ErrorBody(code: .unknownType, message: unknownTypeMessage(header.type), field: "type")
        }
        if route.request.isWrite && (header.key ?? "").isEmpty {
            throw ErrorBody.validation("\(type) is a write and needs an idempotency key in 'key'", field: "key")
        }
        return route
    }

    /// A short table names what it answers; the store's long one points to the protocol.
    private func unknownTypeMessage(_ type: String) -> String {
        let answered = messageTypes.map(\.rawValue)
        guard answered.count <= 4 else { return "unknown message type \(InputEcho.quoted(type))" }
        return "\(service) does not handle \(InputEcho.quoted(type)); it answers: \(answered.joined(separator: ", "))"
    }
}
