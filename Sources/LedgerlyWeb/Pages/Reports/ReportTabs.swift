/// The reports' own navigation, at the top of each: the three reports and net worth, the one
/// shown marked (the header's "Reports" leads to the first).
enum ReportTabs {
    static let tabs = [("/reports/categories", "By category"), ("/reports/cashflow", "Cash flow"), ("/reports/payees", "Payees"), ("/networth", "Net worth")]

    static func html(current: String) -> HTML {
        let items = tabs.map { path, title -> HTML in
            path == current ? "<li><a href=\"\(path)\" aria-current=\"page\">\(title)</a></li>" : "<li><a href=\"\(path)\">\(title)</a></li>"
        }
        return "<nav aria-label=\"Reports\"><ul class=\"tabs\">\(items)</ul></nav>"
    }
}
