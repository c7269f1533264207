import HTTPTypes
import Hummingbird
import LedgerlyRuntime

/// The pairing page's routes and how a request's session is found: from the session cookie, or
/// opened for a paired device's cookie (D594).
extension WebApp {
    func addAccessRoutes(to router: Router<Context>) {
        router.get("/pair") { request, _ in PairingPage(app: self).show(request) }
        router.post("/pair") { request, context in try await PairingPage(app: self).pair(request, from: context.remoteAddress) }
    }

    /// The request's session, and the cookie to set when one was opened for it here: a session
    /// cookie of a live session (whose device, if any, is still paired), else, under TLS, a new
    /// session for a paired device's cookie. nil: not signed in. A revoked device's session ends
    /// at its next request, which gets the sign-in page.
    func currentSession(_ request: Request) -> (WebSession, String?)? {
        let now = now()
        if let session = sessions.session(for: request.cookies[SessionBook.cookieName]?.value, now: now) {
            guard let key = session.deviceKey else { return (session, nil) }
            if access.devices.device(forKey: key, now: now) != nil { return (session, nil) }
            sessions.close(session.id)
            return nil
        }
        guard access.secure, let key = DeviceToken.key(for: request.cookies[WebAccess.deviceCookieName]?.value),
              access.devices.device(forKey: key, now: now) != nil else { return nil }
        let session = sessions.open(now: now, deviceKey: key)
        return (session, access.sessionCookie(session.id))
    }

    /// "Sign out": ends the session and, on a paired device, the pairing itself (its device
    /// cookie would otherwise open a new session at the next request); pairing again takes a new
    /// code.
    func signOut(_ session: WebSession) -> Response {
        sessions.close(session.id)
        if let key = session.deviceKey { access.devices.remove(key: key) }
        var response = WebResponse.seeOther("/")
        response.headers[.setCookie] = access.cleared(SessionBook.cookieName)
        response.headers.append(HTTPField(name: .setCookie, value: access.cleared(WebAccess.deviceCookieName)))
        return response
    }
}
