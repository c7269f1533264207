import Synchronization

/// The sessions this process has opened (D511): kept in memory only, so a restart of
/// ledgerly-web signs every browser out (a new `ledgerly web open` signs back in) and no session
/// secret is ever written to disk. Each has its own CSRF token, compared in constant time.
public final class SessionBook: Sendable {
    public static let cookieName = "ledgerly_session"
    /// Idle time after which a session ends.
    public static let idleSeconds: Int64 = 12 * 3600
    /// More sessions than this and the oldest goes (a loop of sign-ins cannot grow memory).
    static let capacity = 64

    private let sessions = Mutex<[String: WebSession]>([:])

    public init() {}

    /// A new session, after a sign-in ticket was accepted or for a paired device's request.
    public func open(now: Int64, deviceKey: String? = nil) -> WebSession {
        let session = WebSession(id: RandomToken.make(), csrfToken: RandomToken.make(), expiresAt: now + Self.idleSeconds, deviceKey: deviceKey)
        sessions.withLock { book in
            book = book.filter { $0.value.expiresAt >= now }
            if book.count >= Self.capacity, let oldest = book.min(by: { $0.value.expiresAt < $1.value.expiresAt })?.key {
                book[oldest] = nil
            }
            book[session.id] = session
        }
        return session
    }

    /// The live session with this cookie value, its idle time restarted; nil when there is none.
    public func session(for id: String?, now: Int64) -> WebSession? {
        guard let id, RandomToken.isWellFormed(id) else { return nil }
        return sessions.withLock { book in
            guard var session = book[id] else { return nil }
            guard session.expiresAt >= now else {
                book[id] = nil
                return nil
            }
            session.expiresAt = now + Self.idleSeconds
            book[id] = session
            return session
        }
    }

    public func close(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// Whether a form's token is this session's, compared without an early exit so the time taken
    /// does not tell how much of a guess was right.
    public static func csrfMatches(_ sent: String?, _ session: WebSession) -> Bool {
        guard let sent else { return false }
        let left = Array(sent.utf8), right = Array(session.csrfToken.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
