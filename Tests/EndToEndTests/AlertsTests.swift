import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Budgets and their alerts through the real services and CLI: thresholds in order, printed
    /// by a follower in another process; exactly once across kills and restarts; recurring
    /// transactions after simulated downtime.
    @Suite struct AlertsTests {
        static func alerts(_ harness: ServiceHarness) throws -> [AlertRecord] {
            let result = try harness.cli("alerts", "list", "--limit", "1000", "--json")
            guard result.status == 0 else { throw HarnessError.commandFailed("alerts list", result.stderr) }
            return try JSONDecoder().decode(AlertListReply.self, from: Data(result.stdout.utf8)).alerts
        }

        /// A EUR ledger with a Card wallet, a Groceries category and a 200 EUR budget on it.
        static func groceriesBudget(_ harness: ServiceHarness) throws {
            try harness.start(.store)
            try harness.setUp()
            for step in [["wallet", "add", "Card", "--currency", "EUR", "--starting-balance", "1000"],
                         ["category", "add", "Groceries", "--kind", "expense"],
                         ["budget", "set", "Groceries", "200"]] {
                let result = try harness.cli(step)
                guard result.status == 0 else { throw HarnessError.commandFailed(step.joined(separator: " "), result.stderr) }
            }
        }

        static func spend(_ harness: ServiceHarness, _ amount: String) throws {
            let result = try harness.cli("tx", "add", "--wallet", "Card", "--amount", amount, "--category", "Groceries")
            guard result.status == 0 else { throw HarnessError.commandFailed("tx add", result.stderr) }
        }

        @Test func thresholdsAreReportedOnceEachInOrderToAFollower() throws {
            let harness = try ServiceHarness()
            try Self.groceriesBudget(harness)
            try harness.start(.alerts)
            // --since: however slowly the follower starts, nothing raised after this moment is missed.
            let follower = try FollowerProcess(harness: harness, arguments: ["alerts", "--follow", "--since", Timestamp.now()])
            defer { follower.stop() }

            try Self.spend(harness, "100")
            try follower.waitForLines(1, "the 50 % alert", harness: harness)
            try Self.spend(harness, "60")
            try follower.waitForLines(2, "the 80 % alert", harness: harness)
            try Self.spend(harness, "50")
            try follower.waitForLines(3, "the 100 % alert", harness: harness)
            Thread.sleep(forTimeInterval: 1.5)
            let lines = follower.lines
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.count == 3 && lines[0].contains("Groceries: 50 % of the") && lines[0].contains("(100.00 of 200.00 EUR spent)"))
            #expect(lines.count == 3 && lines[1].contains("Groceries: 80 %") && lines[1].contains("160.00 of 200.00"))
            #expect(lines.count == 3 && lines[2].contains("Groceries: 100 %") && lines[2].contains("210.00 of 200.00"))

            // Falling back below 100 % (to exactly 80 %) and crossing it again in the same month raises nothing new.
            let list = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--json").stdout.utf8))
            let last = try #require(list.transactions.first { $0.amount == "50.00" })
            #expect(try harness.cli("tx", "delete", String(last.id)).status == 0)
            try Self.spend(harness, "60")
            Thread.sleep(forTimeInterval: 1.5)
            #expect(follower.lines.count == 3)
            #expect(try Self.alerts(harness).map(\.threshold) == [50, 80, 100])

            let status = try harness.cli("budget", "status")
            #expect(status.stdout.contains("Groceries"))
            #expect(status.stdout.contains("220.00"))  // 100 + 60 + 60
            #expect(status.stdout.contains("█"))
        }

        @Test func anAlertMissedWhileTheServiceWasKilledAppearsOnceAcrossRestarts() throws {
            let harness = try ServiceHarness()
            try Self.groceriesBudget(harness)
            try harness.start(.alerts)
            try Self.spend(harness, "120")  // 60 %: the 50 % alert
            try harness.waitFor("the 50 % alert") { try Self.alerts(harness).count == 1 }

            harness.stop(.alerts, signal: SIGKILL)
            try Self.spend(harness, "45")  // 82.5 %: crosses 80 % while nobody watches
            try harness.start(.alerts)
            try harness.waitFor("the 80 % alert") { try Self.alerts(harness).count == 2 }
            for _ in 0..<2 {
                harness.stop(.alerts)
                try harness.start(.alerts)
                Thread.sleep(forTimeInterval: 1)
            }
            // The store restarted in the middle too.
            harness.stop(.store, signal: SIGKILL)
            try harness.start(.store)
            harness.stop(.alerts, signal: SIGKILL)
            try harness.start(.alerts)
            Thread.sleep(forTimeInterval: 1.5)
            let alerts = try Self.alerts(harness)
            #expect(alerts.map(\.threshold) == [50, 80])
            #expect(Set(alerts.map(\.key)).count == alerts.count)
            // What was missed is printed by a follower started with --since.
            let follower = try FollowerProcess(harness: harness, arguments: ["alerts", "--follow", "--since", "2000-01-01"])
            defer { follower.stop() }
            try follower.waitForLines(2, "the missed alerts", harness: harness)
            #expect(follower.lines.count == 2)
        }

        @Test func aMonthlyTemplatePostsEachMissedOccurrenceOnceAfterDowntime() throws {
            let harness = try ServiceHarness()
            try harness.start(.store)
            try harness.setUp()
            #expect(try harness.cli("wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "5000").status == 0)
            let tomorrow = Timestamp.today(at: Date().addingTimeInterval(86_400))
            let added = try harness.cli("recurring", "add", "Rent", "--wallet", "Checking", "--amount", "1200", "--frequency", "monthly", "--start", tomorrow)
            #expect(added.status == 0, "\(added.stderr)")
            try harness.start(.alerts)
            Thread.sleep(forTimeInterval: 1)
            #expect(try Self.postedRent(harness).isEmpty)  // nothing due yet

            // Everything stops; 70 days pass (tomorrow, a month later and two months later fall due).
            harness.stop(.alerts)
            harness.stop(.store)
            let offset = ["--clock-offset", String(70 * 86_400)]
            try harness.start(.store, extraArguments: offset)
            try harness.start(.alerts, extraArguments: offset)
            try harness.waitFor("three occurrences") { try Self.postedRent(harness).count == 3 }
            for _ in 0..<2 {
                harness.stop(.alerts, signal: SIGKILL)
                try harness.start(.alerts, extraArguments: offset)
                Thread.sleep(forTimeInterval: 1)
            }
            let posted = try Self.postedRent(harness)
            #expect(posted.count == 3)
            #expect(Set(posted.map(\.date)).count == 3)
            #expect(posted.map(\.date).sorted().first == tomorrow)
            #expect(try Self.alerts(harness).filter { $0.kind == .recurringDue }.count == 3)
            let wallets = try JSONDecoder().decode(WalletListReply.self, from: Data(try harness.cli("wallet", "list", "--json").stdout.utf8))
            #expect(wallets.wallets.first?.balance == "1400.00")  // 5000 − 3 × 1200
        }

        static func postedRent(_ harness: ServiceHarness) throws -> [TransactionRecord] {
            let list = try JSONDecoder().decode(TransactionListReply.self, from: Data(try harness.cli("tx", "list", "--json").stdout.utf8))
            return list.transactions.filter { $0.notes == "Rent" }
        }
    }
}

extension EndToEndTests.AlertsTests {
    @Test func aGoalReportsEachMilestoneOnce() throws {
        let harness = try ServiceHarness()
        try harness.start(.store)
        try harness.setUp()
        try harness.start(.alerts)
        #expect(try harness.cli("goal", "add", "Bike", "--target", "400").status == 0)
        for amount in ["100", "150", "200"] {
            #expect(try harness.cli("goal", "fund", "Bike", amount).status == 0)
        }
        try harness.waitFor("four milestones") { try Self.alerts(harness).count >= 4 }
        Thread.sleep(forTimeInterval: 1)
        let alerts = try Self.alerts(harness)
        #expect(alerts.map(\.threshold) == [25, 50, 75, 100])
        #expect(alerts.last?.message == "Bike: goal reached (450.00 of 400.00 EUR)")
        #expect(try harness.cli("goal", "show", "Bike").stdout.contains("reached"))
    }
}

extension EndToEndTests.AlertsTests {
    @Test func aWebhookGetsSignedAlertsAndADownReceiverIsRetriedWithoutHoldingUpAlerts() throws {
        let receiver = try WebhookReceiver(secret: "s3cret-for-tests")
        let harness = try ServiceHarness()
        let configuration = try JSONSerialization.data(withJSONObject: [
            "webhooks": [["name": "phone", "url": receiver.url, "secret": "s3cret-for-tests", "retryInitialSeconds": 0.5, "retryMaximumSeconds": 1]],
        ])
        try configuration.write(to: harness.home.root.appendingPathComponent("alerts.json"))
        try Self.groceriesBudget(harness)
        try harness.start(.alerts)

        try Self.spend(harness, "100")  // 50 %
        try harness.waitFor("the first delivery") { receiver.received.count == 1 }
        #expect(receiver.received.filter { !$0.valid }.isEmpty)

        // The receiver goes down: alerts are still raised at once, and delivered when it is back.
        receiver.setDown(true)
        try Self.spend(harness, "60")  // 80 %
        try Self.spend(harness, "50")  // 100 %
        try harness.waitFor("both alerts raised") { try Self.alerts(harness).count == 3 }
        try harness.waitFor("retries") { receiver.attempts >= 3 }
        #expect(receiver.received.count == 1)
        receiver.setDown(false)
        try harness.waitFor("the deliveries after the outage") { receiver.received.count == 3 }
        let received = receiver.received
        #expect(received.filter { !$0.valid }.isEmpty)
        #expect(received.compactMap(\.key) == ["budget:1:\(Timestamp.today().prefix(7)):50", "budget:1:\(Timestamp.today().prefix(7)):80", "budget:1:\(Timestamp.today().prefix(7)):100"])
    }
}

extension EndToEndTests.AlertsTests {
    /// A webhook that asks for transactions gets every change to them, as the store published it,
    /// signed with HMAC-SHA3-256 as Firefly III signs (checked by Python's hashlib), and no alerts.
    @Test func aWebhookCanTakeTransactionChangesSignedWithSHA3() throws {
        let receiver = try WebhookReceiver(secret: "s3cret-for-tests", hash: "sha3_256")
        let harness = try ServiceHarness()
        let configuration = try JSONSerialization.data(withJSONObject: [
            "webhooks": [["name": "firefly", "url": receiver.url, "secret": "s3cret-for-tests", "signature": "hmac-sha3-256",
                          "events": ["transactions"], "retryInitialSeconds": 0.5, "retryMaximumSeconds": 1]],
        ])
        try configuration.write(to: harness.home.root.appendingPathComponent("alerts.json"))
        try Self.groceriesBudget(harness)
        try harness.start(.alerts)

        try Self.spend(harness, "150")  // 75 %: an alert, which this webhook does not take
        let list = try harness.cli("tx", "list", "--json")
        let id = try #require(((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["transactions"] as? [[String: Any]])?.first?["id"] as? Int)
        #expect(try harness.cli("tx", "edit", "\(id)", "--notes", "Market").status == 0)
        #expect(try harness.cli("tx", "delete", "\(id)").status == 0)
        try harness.waitFor("three changes") { receiver.received.count >= 3 }
        Thread.sleep(forTimeInterval: 1)
        let received = receiver.received
        #expect(received.allSatisfy { $0.valid }, "\(received)")
        #expect(received.map(\.event) == ["tx.created", "tx.updated", "tx.deleted"])
        #expect(received.allSatisfy { $0.key == nil && $0.changeKey != nil })
        #expect(Set(received.compactMap(\.changeKey)).count == 3)
        #expect(try Self.alerts(harness).count == 1)
    }
}

extension EndToEndTests.AlertsTests {
    @Test func aStaleRateAWalletNeedsIsReportedOncePerEpisode() throws {
        let harness = try ServiceHarness()
        try harness.start(.store)
        try harness.setUp()
        #expect(try harness.cli("wallet", "add", "Dollars", "--currency", "USD").status == 0)
        #expect(try harness.cli("rates", "set", "EUR", "USD", "1.1172", "--profile", "official", "--at", "2026-10-30T15:00:00Z").status == 0)
        #expect(try harness.cli("rates", "set", "EUR", "CHF", "0.9194", "--profile", "official", "--at", "2026-10-30T15:00:00Z").status == 0)  // no CHF wallet
        try harness.start(.alerts)
        try harness.waitFor("the stale-rate alert") { try Self.alerts(harness).contains { $0.kind == .rateStale } }
        Thread.sleep(forTimeInterval: 6)  // another pass of the schedule
        let stale = try Self.alerts(harness).filter { $0.kind == .rateStale }
        #expect(stale.map(\.subject) == ["EUR/USD"])
        #expect(stale.first?.message.contains("d old") == true)
    }
}
