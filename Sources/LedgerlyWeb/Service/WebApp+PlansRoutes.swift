import Hummingbird

extension WebApp {
    /// The routes of goals, recurring transactions, investments and alerts (issue 47), kept out of
    /// `router()` so each area's routes sit in its own file.
    func addPlansRoutes(to router: Router<Context>) {
        router.get("/goals") { request, _ in try await guarded(request) { session in try await GoalsPage(store: store).show(query: FormFields(encoded: request.uri.query ?? ""), session: session) } }
        router.post("/goals") { request, _ in try await posted(request, needsSetup: true) { session, form in try await GoalsPage(store: store).fund(form, session: session) } }
        router.get("/recurring") { request, _ in try await guarded(request) { session in try await RecurringPage(store: store).show(session: session) } }
        router.post("/recurring/{id}/pause") { request, context in
            try await posted(request, needsSetup: true) { session, form in try await RecurringPage(store: store).pause(id: context.parameters.get("id") ?? "", form, session: session) }
        }
        router.get("/investments") { request, _ in try await guarded(request) { _ in try await InvestmentsPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
        router.get("/alerts") { request, _ in try await guarded(request) { _ in try await AlertsPage(store: store).render(query: FormFields(encoded: request.uri.query ?? "")) } }
    }
}
