import Foundation
import HTTPTypes
import Hummingbird
import LedgerlyProtocol
import LedgerlyRuntime
import NIOCore

/// The routes and what they share: the store, the sessions, the sign-in tickets, the paired
/// devices, the live feed. Every page but sign-in, pairing and the assets needs a session (from
/// a sign-in link, or opened for a paired device's cookie); every POST needs the session's CSRF
/// token; every page but setup leads to `/setup` until the ledger is set up (D511, D594).
public struct WebApp: Sendable {
    let store: WebStore
    let sessions: SessionBook
    let tickets: SignInTickets
    let broadcaster: ChangeBroadcaster
    let access: WebAccess
    /// Unix seconds now for the security timers: the real clock, not `--clock-offset`'s (D596).
    let now: @Sendable () -> Int64

    public init(store: WebStore, sessions: SessionBook, tickets: SignInTickets, broadcaster: ChangeBroadcaster, access: WebAccess, now: @escaping @Sendable () -> Int64) {
        self.store = store
        self.sessions = sessions
        self.tickets = tickets
        self.broadcaster = broadcaster
        self.access = access
        self.now = now
    }

    public typealias Context = WebRequestContext

    public func responder() -> some HTTPResponder<Context> {
        SecureResponder(inner: router().buildResponder())
    }

    func router() -> Router<Context> {
        let router = Router(context: Context.self)
        router.get("/assets/ledgerly.css") { _, _ in Self.asset(Stylesheet.css, type: "text/css; charset=utf-8") }
        router.get("/assets/live.js") { _, _ in Self.asset(LiveScript.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/signin") { request, _ in signIn(request) }
        addAccessRoutes(to: router)
        router.get("/signout") { request, _ in
            try await guarded(request, needsSetup: false) { session in
                WebResponse.html(PageLayout.page(title: "Sign out", current: "", live: false, """
                <form method="post" action="/signout" class="stack">\(FormSupport.hidden(session, key: nil))\
                <p>Sign this browser out of Ledgerly? Getting back in takes a new link from <code>ledgerly web open</code>.</p>\
                <div><button type="submit">Sign out</button></div></form>
                """))
            }
        }
        router.post("/signout") { request, _ in try await posted(request) { session, _ in signOut(session) } }
        router.get("/events") { request, _ in try await guarded(request, needsSetup: false) { _ in events() } }
        router.get("/setup") { request, _ in try await guarded(request, needsSetup: false) { session in try await SetupPage(app: self).show(session: session) } }
        router.post("/setup") { request, _ in try await posted(request) { session, form in try await SetupPage(app: self).save(form, session: session) } }
        router.get("/") { request, _ in try await guarded(request) { _ in try await DashboardPage(store: store).render() } }
        router.get("/wallets") { request, _ in try await guarded(request) { _ in try await WalletsPage(store: store).render() } }
        router.get("/wallets/{id}") { request, context in
            try await guarded(request) { _ in try await WalletPage(store: store).render(id: context.parameters.get("id") ?? "", query: FormFields(encoded: request.uri.query ?? "")) }
        }
        router.get("/transactions/new") { request, _ in
            try await guarded(request) { session in try await TransactionFormPage(store: store).new(session: session, query: FormFields(encoded: request.uri.query ?? "")) }
        }
        router.post("/transactions/new") { request, _ in
            try await posted(request, needsSetup: true) { session, form in try await TransactionFormPage(store: store).create(form, session: session) }
        }
        router.get("/transactions/{id}") { request, context in
            try await guarded(request) { session in try await TransactionFormPage(store: store).edit(id: context.parameters.get("id") ?? "", session: session) }
        }
        router.post("/transactions/{id}") { request, context in
            try await posted(request, needsSetup: true) { session, form in try await TransactionFormPage(store: store).update(id: context.parameters.get("id") ?? "", form, session: session) }
        }
        router.post("/transactions/{id}/delete") { request, context in
            try await posted(request, needsSetup: true) { session, form in try await TransactionFormPage(store: store).delete(id: context.parameters.get("id") ?? "", form, session: session) }
        }
        router.get("/rates") { request, _ in try await guarded(request) { session in try await RatesPage(store: store).show(query: FormFields(encoded: request.uri.query ?? ""), session: session) } }
        router.post("/rates") { request, _ in try await posted(request, needsSetup: true) { session, form in try await RatesPage(store: store).save(form, session: session) } }
        router.get("/convert") { request, _ in try await guarded(request) { _ in try await ConvertPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
        router.get("/budgets") { request, _ in try await guarded(request) { session in try await BudgetsPage(store: store).show(session: session) } }
        router.post("/budgets") { request, _ in try await posted(request, needsSetup: true) { session, form in try await BudgetsPage(store: store).save(form, session: session) } }
        addReportsRoutes(to: router)
        addPlansRoutes(to: router)
        addImportRoutes(to: router)
        return router
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The page every request without a session gets (401): how to get in; beyond loopback,
    /// pairing too (D594).
    func signInNeeded(_ reason: String? = nil) -> Response {
        let why: HTML = reason.map { "<p class=\"error\">\($0)</p>" } ?? .empty
        let pairing: HTML = access.secure ? """
        <p>To let a phone or another computer in, run <code>ledgerly web pair</code> there and enter its code on the <a href="/pair">pairing page</a>.</p>
        """ : .empty
        return WebResponse.html(PageLayout.page(title: "Sign in", current: "", live: false, signedIn: false, """
        \(why)<p>This browser is not signed in to Ledgerly.</p>\
        <p>On the computer Ledgerly runs on, run</p><pre><code>ledgerly web open</code></pre>\
        <p>and open the link it prints. Each link works once, for a few minutes.</p>\(pairing)
        """), status: .unauthorized)
    }

    func signIn(_ request: Request) -> Response {
        let token = request.uri.queryParameters["token"].map(String.init) ?? ""
        switch tickets.consume(token, now: now()) {
        case .unknown: return signInNeeded("This sign-in link is not valid: it was used already, or it was never issued.")
        case .expired: return signInNeeded("This sign-in link has expired.")
        case .accepted:
            let session = sessions.open(now: now())
            var response = WebResponse.seeOther("/")
            response.headers[.setCookie] = access.sessionCookie(session.id)
            return response
        }
    }

    /// Runs `body` for a signed-in request, else answers 401 with the way in; sends a ledger not
    /// set up yet to `/setup`.
    func guarded(_ request: Request, needsSetup: Bool = true, _ body: (WebSession) async throws -> Response) async throws -> Response {
        guard case let (session, newCookie)? = currentSession(request) else {
            return signInNeeded()
        }
        var response: Response
        if needsSetup, try await !store.read(SettingsGetRequest()).onboardingCompleted {
            response = WebResponse.seeOther("/setup")
        } else {
            response = try await body(session)
        }
        if let newCookie { response.headers.append(HTTPField(name: .setCookie, value: newCookie)) }
        return response
    }

    /// A form post: signed in, within the size limit, and carrying this session's CSRF token
    /// (403 otherwise, nothing done).
    func posted(_ request: Request, needsSetup: Bool = false, _ body: (WebSession, FormFields) async throws -> Response) async throws -> Response {
        try await guarded(request, needsSetup: needsSetup) { session in
            var request = request
            let bytes: ByteBuffer
            do {
                bytes = try await request.collectBody(upTo: WebLimits.bodyBytes)
            } catch is NIOTooManyBytesError {
                return WebResponse.problem(.contentTooLarge, title: "Too large", "What was sent is larger than this page accepts (\(WebLimits.bodyBytes / 1024) KiB); nothing was saved.")
            }
            let form = FormFields(encoded: String(buffer: bytes))
            guard SessionBook.csrfMatches(form[FormSupport.csrfField], session) else {
                return WebResponse.problem(.forbidden, title: "Refused", "This form was not sent by a Ledgerly page of this session (its security token is missing or wrong); nothing was saved. Go back, reload the page and send it again.")
            }
            return try await body(session, form)
        }
    }

    /// `/events`: Server-Sent Events, one `change` per move of the ledger (D515), and a comment
    /// every 15 seconds so proxies and the browser keep the stream open.
    func events() -> Response {
        let changes = broadcaster.subscribe()
        var headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return Response(status: .ok, headers: headers, body: .init { writer in
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (beats, beat) = AsyncStream.makeStream(of: Int64?.self)
                group.addTask {
                    for await seq in changes { beat.yield(seq) }
                    beat.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(15))
                        beat.yield(nil)
                    }
                }
                for await item in beats {
                    if let seq = item {
                        try await writer.write(ByteBuffer(string: "event: change\ndata: \(seq)\n\n"))
                    } else {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                    }
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        })
    }
}
