import Foundation
import Hummingbird
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime

/// `/setup`: until the ledger is set up, every page leads here. It says what setup decides and
/// asks the two things the ledger cannot do without, the base currency and the exchange mode
/// (each mode with what it fetches, as the CLI wizard says it), then completes setup with sync
/// off (`ledgerly sync` turns it on later). Once set up, it shows the choices made.
struct SetupPage {
    let app: WebApp

    func show(session: WebSession, input: FormFields? = nil, errors: [String: String] = [:], status: HTTPResponse.Status = .ok) async throws -> Response {
        let settings = try await app.store.read(SettingsGetRequest())
        if settings.onboardingCompleted && input == nil {
            let done: HTML = """
            <section class="card"><p>This ledger is set up: base currency <strong>\(settings.baseCurrency ?? "—")</strong>, \
            exchange mode <strong>\(settings.exchangeMode.rawValue)</strong>.</p><p><a class="button" href="/">Go to the dashboard</a></p></section>
            """
            return WebResponse.html(PageLayout.page(title: "Setup", current: "", live: false, done))
        }
        let currency = input?["base_currency"] ?? settings.onboardingProgress?.baseCurrency ?? Self.suggestedCurrency()
        let chosenMode = input?["exchange_mode"] ?? settings.onboardingProgress?.exchangeMode?.rawValue ?? ExchangeMode.official.rawValue
        let modes = ExchangeMode.allCases.map { mode -> HTML in
            let checked: HTML = mode.rawValue == chosenMode ? " checked" : .empty
            return "<label><input type=\"radio\" name=\"exchange_mode\" value=\"\(mode.rawValue)\"\(checked)> <span><strong>\(mode.rawValue.capitalized)</strong>: \(mode.summary). Use it when \(mode.whenToUse).</span></label>"
        }
        let content: HTML = """
        <section class="card"><p>Before Ledgerly can show anything it needs two choices: the <strong>base currency</strong> every total is \
        shown in, and where <strong>exchange rates</strong> come from. You can also make them in a terminal with <code>ledgerly setup</code>; \
        sync between devices is switched on later with <code>ledgerly sync</code>.</p>\
        \(FormSupport.error(errors["_form"]))\
        <form method="post" action="/setup" class="stack">\(FormSupport.hidden(session))\
        <div><label for="base_currency">Base currency</label><input id="base_currency" name="base_currency" autocomplete="off" maxlength="12" value="\(currency)" required>\
        <small class="muted">An ISO 4217 code such as EUR, USD or MXN.</small>\(FormSupport.error(errors["base_currency"]))</div>\
        <fieldset><legend>Exchange rates</legend>\(modes)\(FormSupport.error(errors["exchange_mode"]))</fieldset>\
        <div><button type="submit">Finish setup</button></div></form></section>
        """
        return WebResponse.html(PageLayout.page(title: "Set up Ledgerly", current: "", live: false, content), status: status)
    }

    func save(_ form: FormFields, session: WebSession) async throws -> Response {
        guard let key = FormSupport.key(form) else { return WebResponse.problem(.badRequest, title: "Refused", "This form has no valid idempotency key; reload it and send it again.") }
        guard let mode = form["exchange_mode"].flatMap(ExchangeMode.init(rawValue:)) else {
            return try await show(session: session, input: form, errors: ["exchange_mode": "Choose where exchange rates come from."], status: .unprocessableContent)
        }
        let currency = (form.trimmed("base_currency") ?? "").uppercased()
        do {
            _ = try await app.store.write(SetupCompleteRequest(baseCurrency: currency, exchangeMode: mode, cloudSync: false), key: key)
        } catch {
            guard case .rejected(let body) = error else { throw error }
            // The store names a field by its path in the request ("body.baseCurrency").
            let named = body.field.map { $0.hasPrefix("body.") ? String($0.dropFirst(5)) : $0 }
            let field = named == "baseCurrency" ? "base_currency" : named == "exchangeMode" ? "exchange_mode" : "_form"
            return try await show(session: session, input: form, errors: [field: body.message], status: .unprocessableContent)
        }
        return WebResponse.seeOther("/")
    }

    /// The locale's currency (`LC_ALL`, `LC_MONETARY`, `LANG` of the service), as the CLI wizard
    /// suggests it; USD when the locale names none.
    static func suggestedCurrency() -> String {
        let environment = ProcessInfo.processInfo.environment
        for variable in ["LC_ALL", "LC_MONETARY", "LANG"] {
            guard let value = environment[variable], !value.isEmpty, value != "C", value != "POSIX" else { continue }
            let identifier = value.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? value
            if let code = RegionCurrency.currency(forLocale: identifier), CurrencyCatalog.entry(for: code) != nil { return code }
        }
        return "USD"
    }
}
