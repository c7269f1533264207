import Foundation
import LedgerlyRuntime

/// Who may in, beyond the sessions themselves (D590-D594): whether the service speaks TLS (then
/// cookies are `Secure` and pairing is open), the paired devices, the pairing codes and their
/// rate limit, and the clock these timers use: the real one, whatever `--clock-offset` says (D596).
public struct WebAccess: Sendable {
    public static let deviceCookieName = "ledgerly_device"
    /// The pairing form's own anti-forgery cookie: it has no session yet to carry a CSRF token.
    public static let pairCookieName = "ledgerly_pair"
    /// A device cookie lives 400 days (the longest browsers keep one) and is sent again with
    /// each visit; revoking the device ends it at once.
    public static let deviceCookieSeconds = 400 * 86_400

    /// Whether the service serves HTTPS (it listens beyond loopback).
    public let secure: Bool
    public let devices: PairedDeviceBook
    public let pairingCodes: PairingCodeFolder
    public let rateLimit: PairingRateLimit
    /// Unix seconds on the real clock.
    public let now: @Sendable () -> Int64

    public init(home: LedgerlyHome, secure: Bool, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.secure = secure
        devices = PairedDeviceBook(home: home)
        pairingCodes = PairingCodeFolder(home: home)
        rateLimit = PairingRateLimit()
        self.now = now
    }

    private var attributes: String { "Path=/; HttpOnly; SameSite=Strict\(secure ? "; Secure" : "")" }

    public func sessionCookie(_ id: String) -> String { "\(SessionBook.cookieName)=\(id); \(attributes)" }
    public func deviceCookie(_ token: String) -> String { "\(Self.deviceCookieName)=\(token); Max-Age=\(Self.deviceCookieSeconds); \(attributes)" }
    public func pairCookie(_ token: String) -> String { "\(Self.pairCookieName)=\(token); Max-Age=1800; \(attributes)" }
    public func cleared(_ name: String) -> String { "\(name)=; Max-Age=0; \(attributes)" }
}
