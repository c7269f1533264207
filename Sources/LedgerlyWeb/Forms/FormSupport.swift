import Foundation

/// What every form carries besides its own fields: the session's CSRF token and, on forms that
/// write, a fresh idempotency key (a lowercase UUID, as PROTOCOL.md §5 asks), so sending the same
/// form twice records one change (D511).
public enum FormSupport {
    public static let csrfField = "_csrf"
    public static let keyField = "_key"

    public static func hidden(_ session: WebSession, key: String? = UUID().uuidString.lowercased()) -> HTML {
        let keyInput: HTML = key.map { "<input type=\"hidden\" name=\"\(keyField)\" value=\"\($0)\">" } ?? .empty
        return "<input type=\"hidden\" name=\"\(csrfField)\" value=\"\(session.csrfToken)\">\(keyInput)"
    }

    /// The form's idempotency key when it has a UUID's shape, else nil (the form is refused).
    public static func key(_ form: FormFields) -> String? {
        guard let key = form[keyField], let uuid = UUID(uuidString: key) else { return nil }
        return uuid.uuidString.lowercased()
    }

    /// An error beside the field it is about.
    public static func error(_ message: String?) -> HTML {
        guard let message else { return .empty }
        return "<p class=\"error\" role=\"alert\">\(message)</p>"
    }
}
