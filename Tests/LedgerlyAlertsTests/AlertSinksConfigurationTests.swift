import Foundation
import LedgerlyAlerts
import LedgerlyRuntime
import Testing

@Suite struct AlertSinksConfigurationTests {
    private func write(_ text: String, to home: LedgerlyHome) throws {
        try Data(text.utf8).write(to: AlertSinksConfiguration.url(home: home))
    }

    private func loadError(_ text: String) throws -> AlertSinksConfigurationError? {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        try write(text, to: home)
        do {
            _ = try AlertSinksConfiguration.load(home: home)
            return nil
        } catch {
            return error
        }
    }

    @Test func absentFileMeansOnlyTheLog() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let configuration = try AlertSinksConfiguration.load(home: home)
        #expect(configuration.commandHooks.isEmpty)
        #expect(configuration.webhooks.isEmpty)
    }

    @Test func documentedExampleLoadsWithDefaults() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        try write("""
        {"commandHooks": [{"name": "notify", "command": ["/bin/sh", "-c", "true"], "timeoutSeconds": 10}],
         "webhooks": [{"name": "home", "url": "https://example.org/hooks", "secret": "s3cret",
                       "retryInitialSeconds": 5, "retryMaximumSeconds": 600, "maximumAttempts": 20},
                      {"name": "minimal", "url": "http://127.0.0.1:8080/x", "secret": "k", "retryInitialSeconds": 0.2}]}
        """, to: home)
        let configuration = try AlertSinksConfiguration.load(home: home)
        #expect(configuration.commandHooks == [.init(name: "notify", command: ["/bin/sh", "-c", "true"], timeoutSeconds: 10)])
        #expect(configuration.webhooks.count == 2)
        let minimal = configuration.webhooks[1]
        #expect(minimal.effectiveRetryInitialSeconds == 0.2)
        #expect(minimal.effectiveRetryMaximumSeconds == 600)
        #expect(minimal.effectiveMaximumAttempts == 20)
        #expect(minimal.effectiveTimeoutSeconds == 10)
        #expect(minimal.backoffSeconds(afterFailures: 1) == 0.2)
        #expect(minimal.backoffSeconds(afterFailures: 3) == 0.8)
        #expect(minimal.backoffSeconds(afterFailures: 40) == 600)
        // The secret never shows in a description.
        #expect(!"\(configuration.webhooks[0])".contains("s3cret"))
    }

    @Test func everyProblemIsReportedReadably() throws {
        let error = try loadError("""
        {"commandHooks": [{"name": "empty", "command": []},
                          {"name": "relative", "command": ["bin/notify"], "timeoutSeconds": 0}],
         "webhooks": [{"name": "home", "url": "ftp://example.org/x", "secret": " ",
                       "retryInitialSeconds": 10, "retryMaximumSeconds": 5, "maximumAttempts": 0},
                      {"name": "home", "url": "https://example.org/y", "secret": "k"}]}
        """)
        guard case .invalid(_, let problems) = error else {
            Issue.record("expected .invalid, got \(String(describing: error))")
            return
        }
        let text = try #require(error).description
        #expect(problems.count == 8, "\(text)")
        #expect(text.contains("has 8 problems"))
        #expect(text.contains("commandHooks[0] \"empty\": \"command\" must hold the program"))
        #expect(text.contains("commandHooks[1] \"relative\": the program \"bin/notify\" must be an absolute path"))
        #expect(text.contains("commandHooks[1] \"relative\": \"timeoutSeconds\" must be between"))
        #expect(text.contains("webhooks[0] \"home\": \"url\" must be an http:// or https:// URL with a host, got \"ftp://example.org/x\""))
        #expect(text.contains("webhooks[0] \"home\": \"secret\" must not be empty"))
        #expect(text.contains("\"retryMaximumSeconds\" (5.0) must not be less than \"retryInitialSeconds\" (10.0)"))
        #expect(text.contains("\"maximumAttempts\" must be between 1 and 1000, got 0"))
        #expect(text.contains("the name \"home\" is used by another sink"))
    }

    /// `httpsOnly` refuses a plain-HTTP receiver; `signature` takes the two schemes and nothing else.
    @Test func httpsOnlyAndTheSignatureSchemeAreChecked() throws {
        let error = try loadError("""
        {"httpsOnly": true,
         "webhooks": [{"name": "lan", "url": "http://192.168.1.5/hook", "secret": "k"},
                      {"name": "firefly", "url": "https://example.org/hook", "secret": "k", "signature": "hmac-sha3-256"}]}
        """)
        #expect(try #require(error).description.contains("webhooks[0] \"lan\": \"url\" must be an https:// URL (\"httpsOnly\" is on), got \"http://192.168.1.5/hook\""))
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        try write("""
        {"webhooks": [{"name": "lan", "url": "http://192.168.1.5/hook", "secret": "k"},
                      {"name": "firefly", "url": "https://example.org/hook", "secret": "k", "signature": "hmac-sha3-256"}]}
        """, to: home)
        let configuration = try AlertSinksConfiguration.load(home: home)
        #expect(!configuration.httpsOnly)
        #expect(configuration.webhooks.map(\.effectiveSignature) == [.hmacSHA256, .hmacSHA3_256])
        let unknown = try loadError(#"{"webhooks": [{"name": "x", "url": "https://e.org/h", "secret": "k", "signature": "md5"}]}"#)
        #expect(unknown != nil)
    }

    /// `events` takes alerts and/or transactions; alerts alone when left out.
    @Test func eventsChooseAlertsTransactionsOrBoth() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        try write("""
        {"commandHooks": [{"name": "both", "command": ["/bin/true"], "events": ["alerts", "transactions"]},
                          {"name": "default", "command": ["/bin/true"]}],
         "webhooks": [{"name": "tx", "url": "https://example.org/h", "secret": "k", "events": ["transactions"]}]}
        """, to: home)
        let configuration = try AlertSinksConfiguration.load(home: home)
        #expect(configuration.commandHooks.map(\.effectiveEvents) == [[.alerts, .transactions], [.alerts]])
        #expect(configuration.webhooks.map(\.effectiveEvents) == [[.transactions]])
        #expect(try loadError(#"{"commandHooks": [{"name": "x", "command": ["/bin/true"], "events": []}]}"#)?.description.contains("\"events\" must name alerts and/or transactions") == true)
        #expect(try loadError(#"{"commandHooks": [{"name": "x", "command": ["/bin/true"], "events": ["budgets"]}]}"#) != nil)
    }

    @Test func missingProgramIsReported() throws {
        let error = try loadError(#"{"commandHooks": [{"name": "n", "command": ["/nonexistent/notify-send"]}]}"#)
        #expect(error?.description.contains("/nonexistent/notify-send does not exist or is not executable") == true, "\(String(describing: error))")
    }

    @Test func unknownKeysAreErrors() throws {
        let error = try loadError(#"{"webhook": [], "commandHooks": [{"name": "n", "command": ["/bin/true"], "timeout": 3}]}"#)
        guard case .invalid(_, let problems) = error else {
            Issue.record("expected .invalid, got \(String(describing: error))")
            return
        }
        #expect(problems.count == 2)
        #expect(problems.contains { $0.hasPrefix("unknown key \"webhook\"") && $0.contains("known: commandHooks, webhooks") })
        #expect(problems.contains { $0.hasPrefix("commandHooks[0]: unknown key \"timeout\"") })
    }

    @Test func malformedDocumentsAreErrors() throws {
        let notJSON = try loadError("{\"webhooks\": [")
        guard case .malformed(let path, let reason) = notJSON else {
            Issue.record("expected .malformed, got \(String(describing: notJSON))")
            return
        }
        #expect(path.hasSuffix("alerts.json"))
        #expect(reason.hasPrefix("it is not valid JSON"))

        let missing = try loadError(#"{"webhooks": [{"name": "home", "url": "https://example.org"}]}"#)
        #expect(missing?.description.hasSuffix("alerts.json is not a valid alert sinks configuration: webhooks[0]: \"secret\" is missing") == true, "\(String(describing: missing))")

        let wrongType = try loadError(#"{"webhooks": [{"name": "home", "url": "https://example.org", "secret": "k", "maximumAttempts": "many"}]}"#)
        #expect(wrongType?.description.contains("webhooks[0].maximumAttempts: expected a whole number") == true, "\(String(describing: wrongType))")

        let notObject = try loadError("[]")
        #expect(notObject?.description.contains("it must be a JSON object") == true)
    }

    @Test func unreadableFileIsAnErrorNotAFallback() throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        // A directory where the file should be: unreadable whoever runs the test (root included).
        try FileManager.default.createDirectory(at: AlertSinksConfiguration.url(home: home), withIntermediateDirectories: true)
        #expect(throws: AlertSinksConfigurationError.self) { try AlertSinksConfiguration.load(home: home) }
        do {
            _ = try AlertDispatcher.make(home: home, logger: LogCapture().logger)
            Issue.record("the dispatcher was made from an unreadable configuration")
        } catch {
            guard case .unreadable(let path, _) = error else {
                Issue.record("expected .unreadable, got \(error)")
                return
            }
            #expect(path.hasSuffix("alerts.json"))
            #expect(error.description.hasPrefix("cannot read the alert sinks configuration"))
        }
    }

    @Test func validateChecksConfigurationsMadeInCode() {
        let configuration = AlertSinksConfiguration(webhooks: [.init(name: "bad name!", url: "https://example.org", secret: "k")])
        #expect(throws: AlertSinksConfigurationError.self) { try configuration.validate() }
        #expect(throws: Never.self) { try AlertSinksConfiguration().validate() }
    }
}
