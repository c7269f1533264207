import Crypto
import Foundation
import LedgerlyAlerts
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import Testing

@Suite(.timeLimit(.minutes(2))) struct WebhookDeliveryTests {
    static let secret = "correct horse battery staple"

    private func webhook(_ url: String, initial: Double = 0.2, maximum: Double? = nil, attempts: Int? = nil, timeout: Double? = nil) -> AlertSinksConfiguration.Webhook {
        .init(name: "home", url: url, secret: Self.secret, retryInitialSeconds: initial, retryMaximumSeconds: maximum, maximumAttempts: attempts, timeoutSeconds: timeout)
    }

    /// Starts `run()` in the background; cancel the task to stop it.
    private func start(_ dispatcher: AlertDispatcher) -> Task<Void, Never> {
        Task { await dispatcher.run() }
    }

    private func outboxFile(_ home: LedgerlyHome, id: Int64 = 42) -> URL {
        AlertOutbox(home: home).directory.appendingPathComponent("home-\(id).json")
    }

    private func outboxEntry(_ url: URL) -> AlertOutboxEntry? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
        }
        return try? decoder.decode(AlertOutboxEntry.self, from: data)
    }

    /// Checks the `Signature` header the way a receiver would; returns its timestamp when valid.
    private func verifiedTimestamp(_ request: WebhookReceiver.Request) -> Int64? {
        guard let header = request.headers["signature"] else { return nil }
        var fields: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        guard let t = fields["t"], let timestamp = Int64(t), let v1 = fields["v1"] else { return nil }
        var message = Data("\(t).".utf8)
        message.append(request.body)
        let expected = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(Self.secret.utf8)))
        let hex = expected.map { String(format: "%02x", $0) }.joined()
        return hex == v1 ? timestamp : nil
    }

    @Test func receiverGetsTheSignedAlert() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let receiver = try await WebhookReceiver()
        let log = LogCapture()
        let dispatcher = AlertDispatcher(home: home, configuration: .init(webhooks: [webhook(receiver.url)]), logger: log.logger)
        let running = start(dispatcher)
        let alert = sampleAlert()
        await dispatcher.dispatch(alert)

        let requests = await receiver.waitForRequests(1)
        running.cancel()
        await running.value
        await receiver.stop()

        let request = try #require(requests.first)
        #expect(requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.uri == "/hooks/ledgerly")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["x-ledgerly-alert-key"] == alert.key)
        #expect(request.body == (try MessageCoding.encode(alert)))
        #expect(try JSONDecoder().decode(AlertRecord.self, from: request.body) == alert)
        let timestamp = try #require(verifiedTimestamp(request), "the signature does not verify: \(request.headers["signature"] ?? "none")")
        #expect(abs(Double(timestamp) - Date().timeIntervalSince1970) < 120)
        // A wrong secret does not verify.
        #expect(WebhookSink.signature(body: request.body, secret: "other", timestamp: timestamp) != request.headers["signature"])
        #expect(WebhookSink.signature(body: request.body, secret: Self.secret, timestamp: timestamp) == request.headers["signature"])

        #expect(await eventually { !FileManager.default.fileExists(atPath: outboxFile(home).path) })
        #expect(await dispatcher.pendingDeliveries().isEmpty)
        let line = try #require(log.lines.first { $0.message == "alert" })
        #expect(line.level == .info)
        #expect(line.metadata["kind"] == "budget.threshold")
        #expect(line.metadata["key"] == alert.key)
        #expect(line.metadata["message"] == alert.message)
        #expect(!log.lines.contains { $0.metadata.values.contains { $0.contains(Self.secret) } })
    }

    @Test func failedDeliveryIsRetriedAfterTheBackoff() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let receiver = try await WebhookReceiver(replies: [.status(500)], fallback: .status(200))
        let log = LogCapture()
        let dispatcher = AlertDispatcher(home: home, configuration: .init(webhooks: [webhook(receiver.url, initial: 0.3)]), logger: log.logger)
        let running = start(dispatcher)
        await dispatcher.dispatch(sampleAlert())

        let requests = await receiver.waitForRequests(2)
        #expect(await eventually { !FileManager.default.fileExists(atPath: outboxFile(home).path) })
        running.cancel()
        await running.value
        await receiver.stop()

        #expect(requests.count == 2)
        guard requests.count == 2 else { return }
        #expect(requests[0].body == requests[1].body)
        #expect(verifiedTimestamp(requests[1]) != nil)
        #expect(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt) >= 0.25)
        #expect(log.lines.contains { $0.message.contains("will retry") && $0.metadata["error"]?.contains("500") == true && $0.metadata["attempts"] == "1/20" })
        #expect(log.lines.contains { $0.message == "alert delivered" && $0.metadata["attempts"] == "2" })
    }

    @Test func retryAfterIsHonoured() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let receiver = try await WebhookReceiver(replies: [.status(503, headers: ["Retry-After": "1"])], fallback: .status(204))
        let dispatcher = AlertDispatcher(home: home, configuration: .init(webhooks: [webhook(receiver.url, initial: 0.1)]), logger: LogCapture().logger)
        let running = start(dispatcher)
        await dispatcher.dispatch(sampleAlert())

        let requests = await receiver.waitForRequests(2)
        #expect(await eventually { await dispatcher.pendingDeliveries().isEmpty })
        running.cancel()
        await running.value
        await receiver.stop()

        #expect(requests.count == 2)
        guard requests.count == 2 else { return }
        #expect(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt) >= 0.95)
    }

    @Test func deliveryWaitingWhileDownSurvivesARestart() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let port = try await WebhookReceiver.unusedPort()
        let configuration = AlertSinksConfiguration(webhooks: [webhook("http://127.0.0.1:\(port)/hooks/ledgerly", initial: 0.2, maximum: 0.4, attempts: 1_000, timeout: 2)])
        let alert = sampleAlert()

        // The receiver is down: the delivery is in the outbox as soon as dispatch returns.
        let first = AlertDispatcher(home: home, configuration: configuration, logger: LogCapture().logger)
        await first.dispatch(alert)
        let file = outboxFile(home)
        let enqueued = try #require(outboxEntry(file), "no outbox file at \(file.path)")
        #expect(enqueued.alert == alert)
        #expect(enqueued.attempts == 0)
        // The same alert again (a replay) is not queued twice.
        await first.dispatch(alert)
        #expect(await first.pendingDeliveries().count == 1)

        // It is tried, fails, and the attempts are recorded in the file.
        let running = start(first)
        #expect(await eventually { (outboxEntry(file)?.attempts ?? 0) >= 2 })
        running.cancel()
        await running.value
        #expect(FileManager.default.fileExists(atPath: file.path))

        // A restart: a new dispatcher on the same home; the receiver is up again.
        let receiver = try await WebhookReceiver(port: port)
        let log = LogCapture()
        let second = AlertDispatcher(home: home, configuration: configuration, logger: log.logger)
        #expect(await second.pendingDeliveries().map(\.alert) == [alert])
        let restarted = start(second)
        let requests = await receiver.waitForRequests(1)
        #expect(await eventually { !FileManager.default.fileExists(atPath: file.path) })
        restarted.cancel()
        await restarted.value
        await receiver.stop()

        #expect(requests.count == 1)
        #expect(try JSONDecoder().decode(AlertRecord.self, from: try #require(requests.first).body) == alert)
        #expect(requests.first.flatMap(verifiedTimestamp) != nil)
        #expect(log.lines.contains { $0.message.contains("resuming alert webhook deliveries") })
    }

    @Test func deliveryGivesUpAfterMaximumAttempts() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let receiver = try await WebhookReceiver(fallback: .status(500))
        let log = LogCapture()
        let dispatcher = AlertDispatcher(home: home, configuration: .init(webhooks: [webhook(receiver.url, initial: 0.1, maximum: 0.2, attempts: 3)]), logger: log.logger)
        let running = start(dispatcher)
        await dispatcher.dispatch(sampleAlert())

        let failed = AlertOutbox(home: home).failedDirectory.appendingPathComponent("home-42.json")
        #expect(await eventually { FileManager.default.fileExists(atPath: failed.path) })
        try await Task.sleep(for: .milliseconds(600))
        running.cancel()
        await running.value
        await receiver.stop()

        #expect(receiver.requests.count == 3)
        #expect(!FileManager.default.fileExists(atPath: outboxFile(home).path))
        let entry = try #require(outboxEntry(failed))
        #expect(entry.attempts == 3)
        #expect(entry.lastError?.contains("HTTP 500") == true)
        #expect(log.lines.contains { $0.level == .error && $0.message.contains("gave up") && $0.metadata["attempts"] == "3/3" })
        #expect(await dispatcher.pendingDeliveries().isEmpty)
    }

    @Test func dispatchReturnsQuicklyWhileTheReceiverHangs() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let receiver = try await WebhookReceiver(fallback: .hang)
        let log = LogCapture()
        let dispatcher = AlertDispatcher(home: home, configuration: .init(webhooks: [webhook(receiver.url, timeout: 60)]), logger: log.logger)
        let running = start(dispatcher)
        await dispatcher.dispatch(sampleAlert(id: 1))
        // The worker is now stuck in a request that will not be answered for a minute.
        #expect(await receiver.waitForRequests(1).count == 1)

        let clock = ContinuousClock()
        let elapsed = await clock.measure {
            for id in Int64(2)...6 { await dispatcher.dispatch(sampleAlert(id: id)) }
        }
        #expect(elapsed < .seconds(10), "five dispatches took \(elapsed) while the webhook hangs (its timeout is 60 s)")
        #expect(log.lines.filter { $0.message == "alert" }.count == 6)
        #expect(await dispatcher.pendingDeliveries().count == 6)
        #expect(receiver.requests.count == 1, "one request at a time per webhook")

        // Stopping does not wait for the hanging request either; the deliveries stay in the outbox.
        let stopping = await clock.measure {
            running.cancel()
            await running.value
        }
        #expect(stopping < .seconds(30))
        await receiver.stop()
        #expect(AlertOutbox(home: home).load().entries.count == 6)
    }

    @Test func deliveriesGoInAlertIdOrder() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let receiver = try await WebhookReceiver()
        let dispatcher = AlertDispatcher(home: home, configuration: .init(webhooks: [webhook(receiver.url)]), logger: LogCapture().logger)
        for id: Int64 in [3, 1, 2] { await dispatcher.dispatch(sampleAlert(id: id)) }
        let running = start(dispatcher)
        let requests = await receiver.waitForRequests(3)
        running.cancel()
        await running.value
        await receiver.stop()
        let ids = try requests.map { try JSONDecoder().decode(AlertRecord.self, from: $0.body).id }
        #expect(ids == [1, 2, 3])
    }

    @Test func signatureIsHMACSHA256OverTimestampDotBody() {
        let body = Data(#"{"id":1}"#.utf8)
        let header = WebhookSink.signature(body: body, secret: "key", timestamp: 1_700_000_000)
        let code = HMAC<SHA256>.authenticationCode(for: Data("1700000000.{\"id\":1}".utf8), using: SymmetricKey(data: Data("key".utf8)))
        #expect(header == "t=1700000000,v1=" + code.map { String(format: "%02x", $0) }.joined())
    }

    /// Firefly III's scheme: the same header, HMAC-SHA3-256 (the expected value from Python's
    /// `hmac.new(b"key", b'1700000000.{"id":1}', hashlib.sha3_256)`).
    @Test func signatureCanBeHMACSHA3256AsFireflyIIISigns() {
        let body = Data(#"{"id":1}"#.utf8)
        #expect(WebhookSink.signature(body: body, secret: "key", timestamp: 1_700_000_000, algorithm: .hmacSHA3_256)
            == "t=1700000000,v1=f54a72cadd8a6d2e5dd9325738bc98d787844516547f41332498f8fe43b794e7")
    }

    /// A receiver that answers with a redirect does not get the alert sent elsewhere: the 3xx is a
    /// failed attempt, and the place it pointed to gets nothing.
    @Test func aRedirectIsAFailedAttemptNotFollowed() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let elsewhere = try await WebhookReceiver()
        let receiver = try await WebhookReceiver(fallback: .status(302, headers: ["Location": elsewhere.url]))
        let sink = WebhookSink(webhook: webhook(receiver.url), logger: LogCapture().logger)
        let outcome = await sink.attempt(sampleAlert())
        #expect(outcome == .failed(reason: "HTTP 302 Found", retryAfterSeconds: nil))
        #expect(await elsewhere.waitForRequests(1, timeout: .milliseconds(500)).isEmpty)
        await receiver.stop()
        await elsewhere.stop()
    }
}
