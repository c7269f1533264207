/// The frame every page shares: landmarks (header with navigation, main, footer), the service's
/// own stylesheet and live-update script, a skip link, and no inline style or script, so the
/// Content-Security-Policy `default-src 'self'` holds (D512, D514).
///
/// The navigation is two lists (D570): the header's short one (three pages and "More" on a
/// phone, a few more from 720 px) and, at the foot of every page, "All pages" grouped, which
/// "More" jumps to. Both are plain links: they work without JavaScript, and the header never
/// grows wider than a phone however many pages there are.
public enum PageLayout {
    /// Where a page's link shows in the header; every page is listed under "All pages".
    public enum HeaderPlace: Sendable {
        /// On every screen.
        case always
        /// From 720 px wide; on a phone only under "All pages".
        case wide
        /// Only under "All pages".
        case never
    }

    public struct Link: Sendable {
        let path: String
        let title: String
        /// The heading it is listed under in "All pages" (groups in order of first appearance).
        let group: String
        let header: HeaderPlace
        /// The header's text when it differs from `title` ("Reports" for the first report); such a
        /// link is marked current for every page of its group that has no header link of its own.
        let headerTitle: String?

        init(path: String, title: String, group: String = "Other", header: HeaderPlace = .never, headerTitle: String? = nil) {
            self.path = path
            self.title = title
            self.group = group
            self.header = header
            self.headerTitle = headerTitle
        }
    }

    /// Every page a signed-in person can open, one line each.
    static let navigation = [Link(path: "/", title: "Dashboard", group: "Overview", header: .always),
                             Link(path: "/alerts", title: "Alerts", group: "Overview"),
                             Link(path: "/wallets", title: "Wallets", group: "Money", header: .always),
                             Link(path: "/transactions/new", title: "Add", group: "Money", header: .always),
                             Link(path: "/investments", title: "Investments", group: "Money"),
                             Link(path: "/import", title: "Import", group: "Money"),
                             Link(path: "/reports/categories", title: "By category", group: "Reports", header: .wide, headerTitle: "Reports"),
                             Link(path: "/reports/cashflow", title: "Cash flow", group: "Reports"),
                             Link(path: "/reports/payees", title: "Payees", group: "Reports"),
                             Link(path: "/networth", title: "Net worth", group: "Reports", header: .wide),
                             Link(path: "/budgets", title: "Budgets", group: "Plans", header: .wide),
                             Link(path: "/goals", title: "Goals", group: "Plans"),
                             Link(path: "/recurring", title: "Recurring", group: "Plans"),
                             Link(path: "/rates", title: "Rates", group: "Rates", header: .wide),
                             Link(path: "/convert", title: "Convert", group: "Rates"),
                             Link(path: "/setup", title: "Setup", group: "Settings")]

    /// Whether `link` stands for the page at `current`.
    static func isCurrent(_ link: Link, _ current: String) -> Bool {
        if link.path == current { return true }
        guard link.headerTitle != nil else { return false }
        return navigation.contains { $0.path == current && $0.group == link.group && $0.header == .never }
    }

    /// The header's list: the `always` and `wide` links, then "More".
    static func headerNavigation(current: String) -> HTML {
        let links = navigation.filter { $0.header != .never }.map { link -> HTML in
            let wide: HTML = link.header == .wide ? " class=\"wide-only\"" : .empty
            let mark: HTML = isCurrent(link, current) ? " aria-current=\"page\"" : .empty
            return "<li\(wide)><a href=\"\(link.path)\"\(mark)>\(link.headerTitle ?? link.title)</a></li>"
        }
        return "<nav aria-label=\"Main\"><ul>\(links)<li><a href=\"#all-pages\">More</a></li></ul></nav>"
    }

    /// "All pages", grouped, at the foot of the page ("More" leads here).
    static func allPages(current: String) -> HTML {
        var groups: [String] = []
        for link in navigation where !groups.contains(link.group) { groups.append(link.group) }
        let sections = groups.enumerated().map { index, group -> HTML in
            let items = navigation.filter { $0.group == group }.map { link -> HTML in
                let mark: HTML = link.path == current ? " aria-current=\"page\"" : .empty
                return "<li><a href=\"\(link.path)\"\(mark)>\(link.title)</a></li>"
            }
            return "<div><h3 id=\"pages-\(index)\">\(group)</h3><ul aria-labelledby=\"pages-\(index)\">\(items)</ul></div>"
        }
        return "<nav id=\"all-pages\" class=\"all-pages\" aria-labelledby=\"all-pages-title\"><h2 id=\"all-pages-title\">All pages</h2><div class=\"groups\">\(sections)</div></nav>"
    }

    /// A full page. `live`: the main content is refreshed in place after a change in the ledger
    /// (pages that show figures; forms are not, so nothing typed is lost).
    public static func page(title: String, current: String, live: Bool, signedIn: Bool = true, _ content: HTML) -> HTML {
        let nav: HTML = signedIn ? headerNavigation(current: current) : .empty
        let pages: HTML = signedIn ? allPages(current: current) : .empty
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
        <footer>\(pages)<p>Ledgerly on this computer · <span id="live-state" role="status"></span>\(signOut)</p></footer></body></html>
        """
    }
}
