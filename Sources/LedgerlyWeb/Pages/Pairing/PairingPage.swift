import Foundation
import HTTPTypes
import Hummingbird
import LedgerlyRuntime
import NIOCore

/// `/pair`: a phone or another computer enters the code `ledgerly web pair` printed and becomes a
/// paired device (D592-D594): a 256-bit token in a long-lived cookie (`HttpOnly; Secure;
/// SameSite=Strict`), its SHA-256 kept in the home. Open only under HTTPS; attempts are
/// rate-limited (D593) and every refused code gets the same answer, whatever was wrong with it.
struct PairingPage {
    let app: WebApp

    /// The longest device name accepted (longer is refused, beside the field).
    static let nameLength = 60
    /// The User-Agent kept for `ledgerly web devices` is cut at this many characters (docs/web.md).
    static let userAgentLength = 200

    func show(_ request: Request) -> Response {
        guard app.access.secure else { return Self.loopbackOnly() }
        let token = RandomToken.make()
        var response = form(token: token, name: "", errors: [:], status: .ok)
        response.headers.append(HTTPField(name: .setCookie, value: app.access.pairCookie(token)))
        return response
    }

    func pair(_ request: Request, from address: String) async throws -> Response {
        guard app.access.secure else { return Self.loopbackOnly() }
        var request = request
        let bytes: ByteBuffer
        do {
            bytes = try await request.collectBody(upTo: WebLimits.bodyBytes)
        } catch is NIOTooManyBytesError {
            return WebResponse.problem(.contentTooLarge, title: "Too large", "What was sent is larger than this page accepts (\(WebLimits.bodyBytes / 1024) KiB).", signedIn: false)
        }
        let fields = FormFields(encoded: String(buffer: bytes))
        let name = (fields["name"] ?? "").trimmingWhitespace
        let cookieToken = request.cookies[WebAccess.pairCookieName]?.value ?? ""
        // Every POST counts, whatever it carries (D593).
        if case .refused(let seconds) = app.access.rateLimit.attempt(from: address) {
            var response = form(token: cookieToken, name: name, errors: ["_form": "Too many pairing attempts. Try again in \(seconds) seconds."], status: .tooManyRequests)
            response.headers[HTTPField.Name("Retry-After")!] = String(seconds)
            return response
        }
        let sentToken = fields["_pair"] ?? ""
        guard RandomToken.isWellFormed(cookieToken), Self.same(sentToken, cookieToken) else {
            return WebResponse.problem(.forbidden, title: "Refused", "This form was not sent by this browser's pairing page; nothing was done. <a href=\"/pair\">Open the pairing page</a> and enter the code again.", signedIn: false)
        }
        if let problem = Self.nameProblem(name) {
            return form(token: cookieToken, name: name, errors: ["name": problem], status: .unprocessableContent)
        }
        let now = app.access.now()
        guard app.access.pairingCodes.consume(fields["code"] ?? "", now: now) else {
            return form(token: cookieToken, name: name, errors: ["code": "This code is not valid. A code works once, for \(PairingCode.lifetimeSeconds / 60) minutes: run ledgerly web pair for a new one."], status: .unprocessableContent)
        }
        let userAgent = String((request.headers[.userAgent] ?? "").prefix(Self.userAgentLength))
        let existing = Set(app.access.devices.list().map(\.id))
        var id = String(RandomToken.make().prefix(8))
        while existing.contains(id) { id = String(RandomToken.make().prefix(8)) }
        let token = DeviceToken.make()
        guard let key = DeviceToken.key(for: token) else { throw HTTPError(.internalServerError) }
        try app.access.devices.add(key: key, device: PairedDevice(id: id, name: name.isEmpty ? Self.deviceName(userAgent: userAgent) : name, userAgent: userAgent, pairedAt: now, lastSeenAt: now))
        let session = app.sessions.open(now: app.now(), deviceKey: key)
        var response = WebResponse.seeOther("/")
        response.headers[.setCookie] = app.access.deviceCookie(token)
        response.headers.append(HTTPField(name: .setCookie, value: app.access.sessionCookie(session.id)))
        response.headers.append(HTTPField(name: .setCookie, value: app.access.cleared(WebAccess.pairCookieName)))
        return response
    }

    func form(token: String, name: String, errors: [String: String], status: HTTPResponse.Status) -> Response {
        let content: HTML = """
        \(FormSupport.error(errors["_form"]))\
        <p>Pairing lets this browser in for good, until you revoke it with <code>ledgerly web revoke</code> or sign out.</p>\
        <p>On the computer Ledgerly runs on, run <code>ledgerly web pair</code>. Check that the certificate fingerprint it prints is the one your browser shows for this page, then enter its code.</p>\
        <form method="post" action="/pair" class="stack card" novalidate>\
        <input type="hidden" name="_pair" value="\(token)">\
        <div><label for="code">Pairing code</label>\
        <input id="code" name="code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="20" required>\
        <small class="muted">Eight letters and digits, as ABCD-EFGH; it works once, for \(Int(PairingCode.lifetimeSeconds / 60)) minutes.</small>\(FormSupport.error(errors["code"]))</div>\
        <div><label for="name">Name for this device</label>\
        <input id="name" name="name" maxlength="\(Self.nameLength)" autocomplete="off" value="\(name)">\
        <small class="muted">Optional; shown by <code>ledgerly web devices</code>. Empty: the browser's own name.</small>\(FormSupport.error(errors["name"]))</div>\
        <div><button type="submit">Pair</button></div></form>
        """
        return WebResponse.html(PageLayout.page(title: "Pair this device", current: "", live: false, signedIn: false, content), status: status)
    }

    /// Why a device name is refused, nil when it is fine: too long, or holding a control character
    /// (a line break, an escape): `ledgerly web devices` and `revoke` print the name on the
    /// owner's terminal, where an escape sequence typed on a phone must not act.
    static func nameProblem(_ name: String) -> String? {
        if name.count > nameLength { return "At most \(nameLength) characters (this one has \(name.count))." }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || ($0.properties.generalCategory == .format && $0.value != 0x200D) }) {
            return "Letters, digits, spaces and punctuation only: no line breaks, tabs or other control characters."
        }
        return nil
    }

    /// On loopback there is nothing to pair: the browser on this computer signs in with a link.
    static func loopbackOnly() -> Response {
        WebResponse.problem(.notFound, title: "Pairing", "Pairing is for phones and computers on the home network, when ledgerly-web listens beyond loopback (HTTPS). On this computer, sign in with the link <code>ledgerly web open</code> prints.", signedIn: false)
    }

    /// A name from a User-Agent: the browser and the system it runs on, e.g. "Firefox on Android".
    static func deviceName(userAgent: String) -> String {
        let systems = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"), ("Macintosh", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux")]
        let browsers = [("Firefox/", "Firefox"), ("Edg/", "Edge"), ("OPR/", "Opera"), ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari")]
        let system = systems.first { userAgent.contains($0.0) }?.1
        let browser = browsers.first { userAgent.contains($0.0) }?.1
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return system
        default: return "a browser"
        }
    }

    /// Equal without an early exit (as CSRF tokens are compared).
    static func same(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
