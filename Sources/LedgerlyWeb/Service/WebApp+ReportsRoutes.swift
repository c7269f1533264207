import Hummingbird

extension WebApp {
    /// The routes of the reports and net worth (issue 47): the three reports, each a GET whose
    /// range is in the address (a link), and net worth with the forms of an asset's valuation
    /// and a liability's payment; kept out of `router()` so each area's routes sit in its own file.
    func addReportsRoutes(to router: Router<Context>) {
        router.get("/reports/categories") { request, _ in try await guarded(request) { _ in try await CategoryReportPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
        router.get("/reports/cashflow") { request, _ in try await guarded(request) { _ in try await CashFlowReportPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
        router.get("/reports/payees") { request, _ in try await guarded(request) { _ in try await PayeeReportPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
        router.get("/networth") { request, _ in try await guarded(request) { _ in try await NetWorthPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
        router.get("/networth/assets/{id}") { request, context in
            try await guarded(request) { session in try await AssetValuationPage(store: store).show(id: context.parameters.get("id") ?? "", session: session) }
        }
        router.post("/networth/assets/{id}") { request, context in
            try await posted(request, needsSetup: true) { session, form in try await AssetValuationPage(store: store).save(id: context.parameters.get("id") ?? "", form, session: session) }
        }
        router.get("/networth/liabilities/{id}") { request, context in
            try await guarded(request) { session in try await LiabilityPaymentPage(store: store).show(id: context.parameters.get("id") ?? "", session: session) }
        }
        router.post("/networth/liabilities/{id}") { request, context in
            try await posted(request, needsSetup: true) { session, form in try await LiabilityPaymentPage(store: store).save(id: context.parameters.get("id") ?? "", form, session: session) }
        }
    }
}
