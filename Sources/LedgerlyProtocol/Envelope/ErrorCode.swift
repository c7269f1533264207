/// Stable machine-readable error codes; clients branch on these, people read `message`.
public enum ErrorCode: String, Codable, CaseIterable, Sendable {
    /// A field's value is not acceptable (bad amount, unknown field, missing field...).
    case validationFailed = "validation_failed"
    /// The entity named in the request does not exist.
    case notFound = "not_found"
    /// The request contradicts the current state (duplicate name, key reused for another request).
    case conflict
    /// The ledger is not set up yet: run `ledgerly setup`.
    case setupRequired = "setup_required"
    /// The `type` is not one this service handles.
    case unknownType = "unknown_type"
    /// The envelope's `v` is a major version this service does not speak.
    case unsupportedVersion = "unsupported_version"
    /// The frame is not a JSON envelope at all.
    case malformed
    /// The service (or one it depends on) cannot answer now; retry later.
    case unavailable
    /// A bug: the service failed in a way it did not expect. The request changed nothing.
    case `internal`
}
