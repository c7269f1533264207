/// A signed-in browser: its cookie value and the CSRF token every form it is sent carries.
public struct WebSession: Sendable, Equatable {
    public let id: String
    public let csrfToken: String
    /// Unix seconds after which the session is over (sliding: each request moves it on).
    public var expiresAt: Int64
    /// The paired device this session was opened for (its token's hash), nil for a session from
    /// a sign-in link: a device's sessions end when it is revoked (D594).
    public var deviceKey: String? = nil
}
