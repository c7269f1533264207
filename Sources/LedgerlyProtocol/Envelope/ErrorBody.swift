/// The body of an `error` reply.
public struct ErrorBody: Codable, Hashable, Sendable, Error, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// The input at fault, as a path into the request ("body.splits[1].amount"), when there is one.
    public var field: String?

    public init(code: ErrorCode, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public var description: String { message }

    public static func validation(_ message: String, field: String? = nil) -> ErrorBody {
        ErrorBody(code: .validationFailed, message: message, field: field)
    }

    /// A request that is not exactly one JSON frame after the routing frames.
    public static let malformedFraming = ErrorBody(code: .malformed, message: "expected exactly one JSON frame after the routing frames")

    public static func notFound(_ message: String, field: String? = nil) -> ErrorBody {
        ErrorBody(code: .notFound, message: message, field: field)
    }
}
