import LedgerlyProtocol

/// Why the store refuses a request, in the ledger's terms: what kind of refusal, the input at
/// fault as a typed path, and the reason in words. Handlers throw this, not the wire's
/// `ErrorBody`; the router turns it into the error reply (`errorBody`), in one place.
struct LedgerError: Error, CustomStringConvertible {
    enum Kind: Sendable {
        /// The input breaks a rule (`validation_failed`).
        case invalid
        /// What the input names does not exist (`not_found`).
        case notFound
        /// The input is fine but the ledger's state refuses it (`conflict`).
        case conflict
        /// Setup is not complete (`setup_required`).
        case notSetUp
        /// The stored ledger is not as it should be; nothing was changed (`internal`).
        case broken
    }

    let kind: Kind
    let reason: String
    let field: FieldPath?

    static func invalid(_ reason: String, field: FieldPath? = nil) -> LedgerError { LedgerError(kind: .invalid, reason: reason, field: field) }
    static func notFound(_ reason: String, field: FieldPath? = nil) -> LedgerError { LedgerError(kind: .notFound, reason: reason, field: field) }
    static func conflict(_ reason: String, field: FieldPath? = nil) -> LedgerError { LedgerError(kind: .conflict, reason: reason, field: field) }
    static func notSetUp(_ reason: String) -> LedgerError { LedgerError(kind: .notSetUp, reason: reason, field: nil) }
    static func broken(_ reason: String, field: FieldPath? = nil) -> LedgerError { LedgerError(kind: .broken, reason: reason, field: field) }

    var description: String { reason }

    /// The same refusal about another field (an import item's, a restored record's).
    func moved(to field: FieldPath?, reason: String? = nil) -> LedgerError {
        LedgerError(kind: kind, reason: reason ?? self.reason, field: field)
    }

    /// The error reply's body.
    var errorBody: ErrorBody {
        let code: ErrorCode = switch kind {
        case .invalid: .validationFailed
        case .notFound: .notFound
        case .conflict: .conflict
        case .notSetUp: .setupRequired
        case .broken: .internal
        }
        return ErrorBody(code: code, message: reason, field: field?.wire)
    }
}
