/// A signed-in browser: its cookie value and the CSRF token every form it is sent carries.
public struct WebSession: Sendable, Equatable {
    public let id: String
    public let csrfToken: String
    /// Unix seconds after which the session is over (sliding: each request moves it on).
    public var expiresAt: Int64
}
