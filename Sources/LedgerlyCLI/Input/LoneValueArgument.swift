import ArgumentParser

/// A positional value declared as "everything left over" (`.allUnrecognized`), so that "-5"
/// arrives as a value the command refuses instead of being taken for an unknown option. Exactly
/// one must be there; the words are swift-argument-parser's own for a missing argument, so the
/// error reads as for any other positional (D501).
enum LoneValueArgument {
    /// The one element of `values`, else a usage error naming `<name>` ("value", "amount").
    @discardableResult
    static func check(_ values: [String], name: String) throws -> String {
        guard let value = values.first else { throw ValidationError("Missing expected argument '<\(name)>'") }
        guard values.count == 1 else { throw ValidationError("expected one \(name), got \(values.map { "'\($0)'" }.joined(separator: " "))") }
        return value
    }
}
