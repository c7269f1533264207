import Foundation
import LedgerlyCore
@testable import LedgerlyWeb
import LedgerlyProtocol
import Testing

/// The pure parts of the reports, net worth and navigation (issue 47): the range an address asks
/// for (D571), the shares the % column and bars show (D572), the chart of several lines (D573),
/// the dashboard's rate warnings (D575) and the two-level navigation (D570).
@Suite struct ReportPagesTests {
    static func query(_ text: String) -> FormFields { FormFields(encoded: text) }

    @Test func aRangeIsReadAsTheCLIReadsFromToAndMonths() {
        #expect(MonthRangeQuery(Self.query("")).bounds(thisMonth: "2026-12") == .range(from: nil, to: nil))
        #expect(MonthRangeQuery(Self.query("from=2026-01&to=2026-06")).bounds(thisMonth: "2026-12") == .range(from: "2026-01", to: "2026-06"))
        // The last three months, this one included, across a year's turn.
        #expect(MonthRangeQuery(Self.query("months=3")).bounds(thisMonth: "2027-01") == .range(from: "2026-11", to: "2027-01"))
        #expect(MonthRangeQuery(Self.query("months=1")).bounds(thisMonth: "2026-12") == .range(from: "2026-12", to: "2026-12"))
        // Refused beside the months field, never read as something else.
        for bad in ["0", "-2", "abc", "1.5", "1201"] {
            guard case .refused(let field, _) = MonthRangeQuery(Self.query("months=\(bad)")).bounds(thisMonth: "2026-12") else {
                Issue.record("months=\(bad) was not refused")
                continue
            }
            #expect(field == "months")
        }
        guard case .refused(let field, _) = MonthRangeQuery(Self.query("months=3&from=2026-01")).bounds(thisMonth: "2026-12") else {
            Issue.record("months with from was not refused")
            return
        }
        #expect(field == "months")
        #expect(MonthRangeQuery(Self.query("from=2026-01&months=&to=2026-02")).queryText == "from=2026-01&to=2026-02")
    }

    @Test func sharesAreTenthsOfAPercentRoundedHalfAwayFromZero() {
        #expect(ReportShare.tenths(Decimal(string: "120.40")!, of: Decimal(string: "278.83")!) == 432)
        #expect(ReportShare.tenths(1, of: 8) == 125)
        // 1/16 = 6.25 % → 62.5 tenths → 63; and the negative alike.
        #expect(ReportShare.tenths(1, of: 16) == 63)
        #expect(ReportShare.tenths(-1, of: 16) == -63)
        #expect(ReportShare.tenths(5, of: 0) == 0)
        #expect(ReportShare.tenths(5, of: -3) == 0)
        #expect(ReportShare.text(tenths: 432) == "43.2")
        #expect(ReportShare.text(tenths: -15) == "-1.5")
        #expect(ReportShare.text(tenths: 1000) == "100.0")
    }

    @Test func aShareBarFillsItsPartAndStaysInside() {
        #expect(ShareBar.svg(tenths: 432, label: "Food").markup.contains("class=\"fill\" x=\"0\" y=\"2\" width=\"43.2\""))
        #expect(ShareBar.svg(tenths: 1500, label: "x").markup.contains("width=\"100\" height=\"8\"/></svg>"))
        #expect(ShareBar.svg(tenths: -20, label: "x").markup.contains("class=\"fill\" x=\"0\" y=\"2\" width=\"0\""))
        #expect(ShareBar.svg(tenths: 1, label: "<b>").markup.contains("aria-label=\"&lt;b&gt;\""))
    }

    @Test func severalLinesShareOneAxisAndTheirFiguresAreShownAsGiven() {
        let svg = MultiLineChart.svg(labels: ["2026-10", "now"], series: [
            .init(name: "Net worth", values: ["100.005", "200"]), .init(name: "Core", values: ["50", nil]), .init(name: "Tangible", values: ["-20", "0"]),
        ], title: "Net worth by month", currency: "EUR").markup
        #expect(svg.components(separatedBy: "<polyline").count == 4)
        // y: -20…200 over 212…16 px; 200 at the top, -20 at the bottom; x: 72 and 624.
        #expect(svg.contains("class=\"line first\" fill=\"none\" points=\"72,105.1 624,16\""))
        #expect(svg.contains("class=\"line second\" fill=\"none\" points=\"72,149.6\""))
        #expect(svg.contains("class=\"line third\" fill=\"none\" points=\"72,212 624,194.2\""))
        // The table keeps the store's digits (three decimals here), a missing value a dash.
        #expect(svg.contains("<tr><th scope=\"row\">2026-10</th><td class=\"num\">100.005</td><td class=\"num\">50</td><td class=\"num\">-20</td></tr>"))
        #expect(svg.contains("<tr><th scope=\"row\">now</th><td class=\"num\">200</td><td class=\"num\">–</td><td class=\"num\">0</td></tr>"))
        #expect(MultiLineChart.svg(labels: [], series: [], title: "t", currency: "EUR").markup.contains("No figures yet"))
        // Long y labels ("263 721.17", 10 characters) move the plot right so they are not cut off.
        let wide = MultiLineChart.svg(labels: ["2026-10"], series: [.init(name: "Net worth", values: ["263721.17"])], title: "t", currency: "EUR").markup
        #expect(wide.contains("points=\"122,16\""))
        #expect(wide.contains(">263\u{2009}721.17</text>"))
        #expect(!MultiLineChart.svg(labels: ["<x>"], series: [.init(name: "<script>", values: ["1"])], title: "t", currency: "EUR").markup.contains("<script>"))
    }

    @Test func theDashboardNamesStaleRatesAndFailingProviders() {
        let profile = RateProfileRecord(id: 1, name: "official", type: .official, primarySource: nil, notes: nil, isDefault: true, lastUpdated: nil)
        let fresh = RateRecord(id: 1, profileId: 1, base: "GBP", quote: "EUR", rate: "1.15", inverseRate: "0.869565", source: "ecb", asOf: "2026-12-07T00:00:00Z",
                               confidence: .fetched, customOverride: false, ageSeconds: 60, stale: false)
        var old = fresh
        (old.base, old.quote, old.rate, old.stale, old.ageSeconds) = ("USD", "EUR", "0.9", true, 86_400 * 3)
        let healthy = RateProviderStatus(name: "ecb", profile: "official", lastAttemptAt: "2026-12-07T10:00:00Z", lastSuccessAt: "2026-12-07T10:00:00Z", lastError: nil,
                                         consecutiveFailures: 0, nextAttemptAt: nil, stored: 1, confirmed: 0)
        var failing = healthy
        (failing.name, failing.lastError, failing.consecutiveFailures) = ("<b>broken</b>", "connection refused", 3)
        let quiet = RateWarnings.card(rates: RateListReply(profile: profile, rates: [fresh]), providers: [healthy]).markup
        #expect(quiet.contains("No stale rates in official; no rate provider failing."))
        let loud = RateWarnings.card(rates: RateListReply(profile: profile, rates: [fresh, old]), providers: [healthy, failing]).markup
        #expect(loud.contains("data-stale=\"USD/EUR\""))
        #expect(!loud.contains("data-stale=\"GBP/EUR\""))
        #expect(loud.contains("3 d old"), "its age: \(loud)")
        #expect(loud.contains("&lt;b&gt;broken&lt;/b&gt;") && loud.contains("connection refused") && loud.contains("3×"))
        #expect(!loud.contains("data-provider=\"ecb\""))
    }

    @Test func thePhoneHeaderIsShortAndAllPagesListsEveryPage() {
        let header = PageLayout.headerNavigation(current: "/reports/payees").markup
        // On a phone: the `always` links and More; the `wide` ones are hidden there by class.
        let always = PageLayout.navigation.filter { $0.header == .always }.map(\.title)
        #expect(always == ["Dashboard", "Wallets", "Add"])
        #expect(header.hasSuffix("<li><a href=\"#all-pages\">More</a></li></ul></nav>"))
        #expect(header.contains("<li class=\"wide-only\"><a href=\"/reports/categories\" aria-current=\"page\">Reports</a></li>"))
        // Net worth has its own header link: the Reports link does not stand for it.
        let onNetWorth = PageLayout.headerNavigation(current: "/networth").markup
        #expect(onNetWorth.contains("<a href=\"/networth\" aria-current=\"page\">Net worth</a>"))
        #expect(!onNetWorth.contains("<a href=\"/reports/categories\" aria-current=\"page\">"))
        let all = PageLayout.allPages(current: "/reports/payees").markup
        for link in PageLayout.navigation {
            #expect(all.contains("<a href=\"\(link.path)\""), "\(link.path) is listed under All pages")
        }
        #expect(all.contains("<a href=\"/reports/payees\" aria-current=\"page\">Payees</a>"))
        #expect(all.hasPrefix("<nav id=\"all-pages\""))
        // Signed out: no navigation at all.
        #expect(!PageLayout.page(title: "Sign in", current: "", live: false, signedIn: false, .empty).markup.contains("all-pages"))
    }

    @Test func netWorthFormRefusalsLandBesideTheirFields() {
        #expect(StoreFieldMapping.assetRevalue.formField(forStoreField: "body.value") == "value")
        #expect(StoreFieldMapping.assetRevalue.formField(forStoreField: "body.date") == "date")
        #expect(StoreFieldMapping.assetRevalue.formField(forStoreField: "body.id") == "_form")
        #expect(StoreFieldMapping.liabilityPay.formField(forStoreField: "body.walletId") == "wallet")
        #expect(StoreFieldMapping.liabilityPay.formField(forStoreField: "body.walletAmount") == "wallet_amount")
        #expect(StoreFieldMapping.liabilityPay.formField(forStoreField: "body.amount") == "amount")
        #expect(StoreFieldMapping.reportRange.formField(forStoreField: "body.from") == "from")
        #expect(StoreFieldMapping.payeeReport.formField(forStoreField: "body.limit") == "limit")
        #expect(StoreFieldMapping.payeeReport.formField(forStoreField: nil) == "_form")
    }
}
