/// A body type that lists its JSON fields, so the strict check (`RequestDecoding`) looks each
/// key sent up in the list instead of re-encoding the decoded body and comparing.
///
/// Why: `tx.import` carries up to 20,000 transactions, and the generic check cost three times the
/// decoding. A test keeps every list equal to its type's stored properties.
public protocol KnownFields: Sendable {
    /// Every field, with the listed type of its value when that is an object (or an array of
    /// objects) whose own fields are checked, nil for a plain value.
    static var fields: [String: (any KnownFields.Type)?] { get }
}
