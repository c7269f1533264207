/// The frame every page shares: landmarks (header with navigation, main, footer), the service's
/// own stylesheet and live-update script, a skip link, and no inline style or script, so the
/// Content-Security-Policy `default-src 'self'` holds (D512, D514).
public enum PageLayout {
    public struct Link: Sendable {
        let path: String
        let title: String
    }

    static let navigation = [Link(path: "/", title: "Dashboard"), Link(path: "/wallets", title: "Wallets"), Link(path: "/transactions/new", title: "Add"),
                             Link(path: "/budgets", title: "Budgets"), Link(path: "/rates", title: "Rates"), Link(path: "/convert", title: "Convert")]

    /// A full page. `live`: the main content is refreshed in place after a change in the ledger
    /// (pages that show figures; forms are not, so nothing typed is lost).
    public static func page(title: String, current: String, live: Bool, signedIn: Bool = true, _ content: HTML) -> HTML {
        let links = navigation.map { link in
            link.path == current
                ? HTML("<li><a href=\"\(link.path)\" aria-current=\"page\">\(link.title)</a></li>")
                : HTML("<li><a href=\"\(link.path)\">\(link.title)</a></li>")
        }
        let nav: HTML = signedIn ? "<nav aria-label=\"Main\"><ul>\(links)</ul></nav>" : .empty
        let signOut: HTML = signedIn ? " · <a href=\"/signout\">Sign out</a>" : .empty
        let liveAttribute: HTML = live ? " data-live=\"1\"" : .empty
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>\(title) · Ledgerly</title><link rel="stylesheet" href="/assets/ledgerly.css">\
        <script src="/assets/live.js" defer></script></head>\
        <body><a class="skip" href="#main">Skip to content</a>\
        <header><a class="brand" href="/">Ledgerly</a>\(nav)</header>\
        <main id="main"\(liveAttribute)><h1>\(title)</h1>\(content)</main>\
        <footer><p>Ledgerly on this computer · <span id="live-state" role="status"></span>\(signOut)</p></footer></body></html>
        """
    }
}
