import Foundation
import LedgerlyCore
import LedgerlyProtocol
import LedgerlyRuntime
import LedgerlySync
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// Issue 44: devices that settle (no endless re-sends, the later edit wins, alert data and
    /// rate profiles alike everywhere) and a hub row that is unreadable or carries a forged
    /// far-future clock put aside rather than fatal or taken as it is. Real PostgreSQL hub, real
    /// binaries, as `SyncTests`.
    @Suite struct SyncConvergenceTests {
        typealias Device = SyncTests.Device

        /// The lines of exports (one record a line) that some hold more or fewer times than
        /// others, each with its count on every device: a record doubled on one device shows.
        static func countedDifference(_ exports: [String]) -> [String] {
            let counts = exports.map { Dictionary($0.split(separator: "\n").map { (String($0), 1) }, uniquingKeysWith: +) }
            return Set(counts.flatMap(\.keys)).compactMap { line in
                let each = counts.map { $0[line] ?? 0 }
                return Set(each).count > 1 ? "\(each) \(line)" : nil
            }.sorted()
        }

        static func hubRows(_ hub: TemporaryPostgres) throws -> Int {
            Int(try hub.psql("SELECT count(*) FROM ledgerly_messages", database: hub.database).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        /// C1: a transfer and a liability payment made on B while A had numbered a transaction of
        /// its own first, so the legs and the payment's transaction have other local ids on A. Once
        /// both have settled, the hub gets no new row over ten seconds of rounds (every second
        /// here), and the legs name each other on both devices. C4 too: a typed rate sets the
        /// profile's "last updated" on both, and `ledgerly settings` says sync is on.
        @Test func transfersAndPaymentsNumberedApartSettleAndStayQuiet() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            for step in [["wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "500"],
                         ["wallet", "add", "Cash", "--currency", "EUR"],
                         ["liability", "add", "Card", "--balance", "1000", "--currency", "EUR"]] {
                let result = try a.harness.cli(step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
            let b = try a.enableAndJoin(hub)

            try hub.stop()
            #expect(try a.cli("tx", "add", "--wallet", "Checking", "--amount", "4.20", "--notes", "Coffee", "--date", "2026-11-02").status == 0)
            #expect(try b.cli("tx", "transfer", "--from", "Checking", "--to", "Cash", "--amount", "50", "--date", "2026-11-03").status == 0)
            #expect(try b.cli("liability", "pay", "Card", "300", "--from", "Checking").status == 0)
            let typed = try a.harness.client().call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.91"))
            try hub.start()
            try Device.meet([a, b])

            // The legs have other local ids on the two devices, and name each other on each.
            for device in [a, b] {
                let transactions = try device.harness.client().call(TransactionListRequest(limit: 50)).transactions
                let legs = transactions.filter { $0.transfer != nil }
                #expect(legs.count == 2, "\(transactions)")
                for leg in legs {
                    let other = try #require(legs.first { $0.id == leg.transfer?.counterpartyTransactionId })
                    #expect(other.transfer?.counterpartyTransactionId == leg.id && other.walletId != leg.walletId)
                }
            }
            let legIds = try [a, b].map { try $0.harness.client().call(TransactionListRequest(limit: 50)).transactions.filter { $0.transfer != nil }.map(\.id).sorted() }
            #expect(legIds[0] != legIds[1], "the test needs the legs numbered apart: \(legIds)")

            // Idle: nothing is sent again.
            let settled = try Self.hubRows(hub)
            Thread.sleep(forTimeInterval: 10)
            for device in [a, b] { _ = try device.cli("sync", "now") }
            #expect(try Self.hubRows(hub) == settled)
            for device in [a, b] { #expect(try device.status().state == "synced") }
            let exports = try [a, b].map { try SyncTests.withoutLocalIds($0.export()) }
            #expect(exports[0] == exports[1], "\(SyncTests.difference(exports + [exports[0]]))")

            // C4: the profile the rate was typed into was updated then on both devices.
            let profile = try #require(try a.harness.client().call(RateProfileListRequest()).profiles.first { $0.id == typed.rate.profileId })
            let updated = try [a, b].map { try $0.harness.client().call(RateProfileListRequest()).profiles.first { $0.name == profile.name }?.lastUpdated }
            #expect(updated[0] != nil && updated[0] == updated[1], "\(updated)")
            let settings = try b.cli("settings")
            #expect(settings.stdout.contains("on (synced"), "\(settings.stdout)")
        }

        /// C2: A edits a transaction's note while its `ledgerly-sync` is stopped; B edits the same
        /// note a second later and pushes at once; A's sync starts after both. B's edit, the
        /// later one, wins on both: the clock is the edit's, not the moment A stamped it.
        @Test func theLaterEditWinsEvenWhenTheEarlierIsSentLater() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let cash = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let lunch = try a.harness.client().call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "12.00", notes: "Lunch", date: "2026-11-02"))
            let b = try a.enableAndJoin(hub)

            a.harness.stop(.sync)
            #expect(try a.cli("tx", "edit", String(lunch.id), "--notes", "Lunch (A, earlier)").status == 0)
            Thread.sleep(forTimeInterval: 1.0)
            #expect(try b.cli("tx", "edit", String(lunch.id), "--notes", "Lunch (B, later)").status == 0)
            try b.waitUntilSynced()
            Thread.sleep(forTimeInterval: 1.5)
            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try Device.meet([a, b])
            for device in [a, b] {
                #expect(try device.harness.client().call(TransactionGetRequest(id: lunch.id)).notes == "Lunch (B, later)")
            }
        }

        /// C3: an alert's data names a goal and a transaction by local id; A and B numbered their
        /// goals and transactions apart, so on B the data must name B's ids of the same goal and
        /// transaction, not the records A's numbers have there.
        @Test func alertDataNamesTheSameRecordsOnEveryDevice() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let cash = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let b = try a.enableAndJoin(hub)

            try hub.stop()
            let clientA = a.harness.client(), clientB = b.harness.client()
            _ = try clientB.call(GoalCreateRequest(name: "Car", target: "5000", currency: "EUR"))
            _ = try clientB.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "3.00", notes: "Made on B", date: "2026-11-02"))
            let bike = try clientA.call(GoalCreateRequest(name: "Bike", target: "800", currency: "EUR"))
            let spoke = try clientA.call(TransactionCreateRequest(kind: .expense, walletId: cash.id, amount: "9.00", notes: "Spoke", date: "2026-11-03"))
            try hub.start()
            try Device.meet([a, b])
            let bikeOnB = try #require(try clientB.call(GoalListRequest()).goals.first { $0.name == "Bike" })
            let spokeOnB = try #require(try clientB.call(TransactionListRequest(limit: 50)).transactions.first { $0.notes == "Spoke" })
            #expect(bikeOnB.id != bike.id && spokeOnB.id != spoke.id, "the test needs them numbered apart")

            _ = try clientA.call(AlertRaiseRequest(kind: .goalProgress, key: "goal:\(bike.id):50", subject: "Bike", message: "Bike is half way",
                                                   threshold: 50, data: .object(["goalId": .integer(bike.id), "transactionId": .integer(spoke.id), "percent": .string("50")])))
            try Device.meet([a, b])
            let alert = try #require(try clientB.call(AlertListRequest()).alerts.first { $0.subject == "Bike" })
            #expect(alert.data == .object(["goalId": .integer(bikeOnB.id), "transactionId": .integer(spokeOnB.id), "percent": .string("50")]), "\(String(describing: alert.data))")
            #expect(alert.key == "goal:\(bikeOnB.id):50")
            let onA = try #require(try clientA.call(AlertListRequest()).alerts.first { $0.subject == "Bike" })
            #expect(onA.data == .object(["goalId": .integer(bike.id), "transactionId": .integer(spoke.id), "percent": .string("50")]))
        }

        /// The issue's randomized convergence run at full size (D486): three devices, 300
        /// operations through the CLI, each on a device picked at random: transactions (some
        /// split, some income in another currency), transfers in one currency and across two,
        /// edits and deletes of a device's own transactions, liability payments and new
        /// liabilities, budgets, goal contributions and new goals, manual assets and their values,
        /// investment buys and sells. Meanwhile the hub is stopped, started and restarted, and
        /// `ledgerly-sync` and `ledgerly-store` are killed with `kill -9` on each device in turn
        /// (one device works on for thirty operations with no sync service at all). Every thirty
        /// operations one field of a shared transaction is edited on two devices, the second
        /// edit at least 60 ms after the first by the test's clock. At the end: the exports agree
        /// (local ids aside), every acknowledged transaction is there as last edited, each later
        /// edit won on every device, the hub gets no new row in 15 s of idle rounds, and there
        /// are at most two hub rows per acknowledged write on average (printed). Seeded: 44, or
        /// `LEDGERLY_SYNC_SEED`; every failure names its seed.
        @Test func hundredsOfRandomOperationsWithFaultsConverge() throws {
            let seed = ProcessInfo.processInfo.environment["LEDGERLY_SYNC_SEED"].flatMap { UInt64($0) } ?? 44
            let operations = 300
            let began = Date()
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            let setUp: [[String]] = [
                ["wallet", "add", "Checking", "--currency", "EUR", "--starting-balance", "20000"],
                ["wallet", "add", "Cash", "--currency", "EUR"],
                ["wallet", "add", "Savings", "--currency", "EUR"],
                ["wallet", "add", "Dollars", "--currency", "USD", "--starting-balance", "1000"],
                ["category", "add", "Food", "--kind", "expense"],
                ["category", "add", "Home", "--kind", "expense"],
                ["liability", "add", "Card", "--balance", "9000", "--currency", "EUR", "--type", "credit-card", "--date", "2026-11-01"],
                ["goal", "add", "Holiday", "--target", "2400", "--wallet", "Savings"],
                ["asset", "add", "Flat", "--value", "200000", "--currency", "EUR", "--date", "2026-11-01"],
                ["invest", "account", "add", "Broker", "--base-currency", "EUR"],
                ["invest", "asset", "add", "VWCE", "--type", "etf", "--currency", "EUR", "--provider", "manual"],
                ["invest", "buy", "VWCE", "--account", "Broker", "--quantity", "100", "--price", "90", "--wallet", "Checking", "--date", "2026-11-01"],
            ] + (0..<6).map { ["tx", "add", "--wallet", "Checking", "--amount", "10.00", "--notes", "contest \($0)", "--date", "2026-11-01"] }
            for step in setUp {
                let result = try a.harness.cli(step)
                #expect(result.status == 0, "\(step): \(result.stderr)")
            }
            let b = try a.enableAndJoin(hub)
            let c = try Device.joining(hub)
            let devices = [a, b, c], names = ["a", "b", "c"]
            try Device.meet(devices)
            let rowsBefore = try Self.hubRows(hub)
            // Each device's local id of each contested transaction (the contests change their notes).
            let contested: [[Int: Int64]] = try devices.map { device in
                var ids: [Int: Int64] = [:]
                for record in try device.harness.client().call(TransactionListRequest(text: "contest ", limit: 100)).transactions {
                    if let number = record.notes.flatMap({ Int($0.dropFirst("contest ".count)) }) { ids[number] = record.id }
                }
                return ids
            }
            #expect(contested.allSatisfy { $0.count == 6 }, "\(contested)")

            var random = SplitMix(seed: seed)
            func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
            /// A transaction a device added: only that device edits or deletes it.
            struct Own { let device: Int; let split: Bool; var notes: String; var deleted = false }
            var own: [Own] = []
            var later: [String: String] = [:]  // "contest 3 notes" → the value of the later edit
            var acknowledged = 0
            func run(_ device: Int, _ arguments: [String], step: Int) throws -> Bool {
                let result = try devices[device].harness.cli(arguments)
                #expect(result.status == 0, "seed \(seed), step \(step) on \(names[device]) \(arguments): \(result.stderr)")
                if result.status == 0 { acknowledged += 1 }
                return result.status == 0
            }
            func localId(_ device: Int, notes: String) throws -> Int64? {
                let listed = try devices[device].harness.client().call(TransactionListRequest(text: notes, limit: 50))
                return listed.transactions.first(where: { $0.notes == notes })?.id
            }

            for step in 0..<operations {
                switch step {
                case 40:
                    b.harness.stop(.sync, signal: SIGKILL)
                    try b.harness.start(.sync, extraArguments: ["--round-interval", "1"])
                case 70, 240: try hub.stop()
                case 110, 265: try hub.start()
                case 130:
                    c.harness.stop(.store, signal: SIGKILL)
                    try c.harness.start(.store)
                case 160: try hub.restart()
                case 190: a.harness.stop(.sync, signal: SIGKILL)
                case 220: try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
                case 250:
                    a.harness.stop(.store, signal: SIGKILL)
                    try a.harness.start(.store)
                case 280:
                    c.harness.stop(.sync, signal: SIGKILL)
                    try c.harness.start(.sync, extraArguments: ["--round-interval", "1"])
                default: break
                }

                if step % 30 == 15 {
                    // One field of a shared transaction edited on two devices, the second later.
                    let number = pick(6), notes = pick(2) == 0
                    let first = pick(3)
                    let second = (first + 1 + pick(2)) % 3
                    let values = notes ? ["contest \(number) by \(names[first]) at \(step)", "contest \(number) by \(names[second]) at \(step)"]
                        : ["\(20 + pick(20)).\(10 + pick(90))", "\(40 + pick(20)).\(10 + pick(90))"]
                    let option = notes ? "--notes" : "--amount"
                    let firstDone = try run(first, ["tx", "edit", String(contested[first][number] ?? 0), option, values[0]], step: step)
                    let firstAt = Date()
                    Thread.sleep(forTimeInterval: 0.06)
                    #expect(Date().timeIntervalSince(firstAt) >= 0.05)
                    if try run(second, ["tx", "edit", String(contested[second][number] ?? 0), option, values[1]], step: step), firstDone {
                        later["contest \(number) \(option)"] = values[1]
                    }
                    continue
                }

                let device = pick(3), key = "op \(step) \(names[device])"
                let amount = "\(1 + pick(60)).\(10 + pick(90))"
                let day = "2026-11-\(10 + pick(18))"
                let mine = own.indices.filter { own[$0].device == device && !own[$0].deleted }
                switch pick(100) {
                case 0..<22:
                    if try run(device, ["tx", "add", "--wallet", pick(2) == 0 ? "Checking" : "Cash", "--amount", amount, "--category", pick(2) == 0 ? "Food" : "Home",
                                        "--notes", key, "--date", day], step: step) {
                        own.append(Own(device: device, split: false, notes: key))
                    }
                case 22..<28:
                    let part = 1 + pick(9)
                    if try run(device, ["tx", "add", "--wallet", "Checking", "--amount", "\(part + 10).50", "--split", "\(part).25:Food", "--split", "10.25:Home:rest",
                                        "--notes", key, "--date", day], step: step) {
                        own.append(Own(device: device, split: true, notes: key))
                    }
                case 28..<32:
                    if try run(device, ["tx", "add", "--wallet", "Dollars", "--kind", "income", "--amount", amount, "--notes", key, "--date", day], step: step) {
                        own.append(Own(device: device, split: false, notes: key))
                    }
                case 32..<40:
                    _ = try run(device, ["tx", "transfer", "--from", "Checking", "--to", pick(2) == 0 ? "Cash" : "Savings", "--amount", amount, "--notes", "transfer \(step)", "--date", day], step: step)
                case 40..<46:
                    _ = try run(device, ["tx", "transfer", "--from", "Checking", "--to", "Dollars", "--amount", amount, "--to-amount", "\(2 + pick(60)).\(10 + pick(90))",
                                         "--notes", "exchange \(step)", "--date", day], step: step)
                case 46..<56 where !mine.isEmpty:
                    let index = mine[pick(mine.count)]
                    if let id = try localId(device, notes: own[index].notes) {
                        if own[index].split || pick(2) == 0 {
                            let notes = "\(own[index].notes.split(separator: ",")[0]), edited at \(step)"
                            if try run(device, ["tx", "edit", String(id), "--notes", notes], step: step) { own[index].notes = notes }
                        } else {
                            _ = try run(device, ["tx", "edit", String(id), "--amount", amount], step: step)
                        }
                    } else {
                        Issue.record("seed \(seed), step \(step): \(names[device]) lost its own \(own[index].notes)")
                    }
                case 56..<61 where mine.count > 2:
                    let index = mine[pick(mine.count)]
                    if let id = try localId(device, notes: own[index].notes), try run(device, ["tx", "delete", String(id)], step: step) { own[index].deleted = true }
                case 61..<69:
                    _ = try run(device, ["liability", "pay", "Card", amount, "--from", "Checking", "--date", day, "--notes", "payment \(step)"], step: step)
                case 69..<74:
                    _ = try run(device, ["budget", "set", pick(2) == 0 ? "Food" : "Home", "\(100 + pick(400))"], step: step)
                case 74..<79:
                    _ = try run(device, ["goal", "fund", "Holiday", amount] + (pick(2) == 0 ? ["--from", "Checking"] : []) + ["--date", day], step: step)
                case 79..<83:
                    _ = try run(device, ["asset", "revalue", "Flat", "\(200_000 + pick(20_000))", "--date", day], step: step)
                case 83..<85:
                    _ = try run(device, ["asset", "add", "Asset \(step)", "--value", amount, "--currency", "EUR", "--date", day], step: step)
                case 85..<92:
                    _ = try run(device, ["invest", "buy", "VWCE", "--account", "Broker", "--quantity", "\(1 + pick(5))", "--price", "\(80 + pick(40))", "--wallet", "Checking", "--date", day],
                                step: step)
                case 92..<96:
                    _ = try run(device, ["invest", "sell", "VWCE", "--account", "Broker", "--quantity", "\(1 + pick(3))", "--price", "\(80 + pick(40))", "--wallet", "Checking",
                                         "--date", day], step: step)
                case 96..<98:
                    _ = try run(device, ["liability", "add", "Loan \(step)", "--balance", "\(1000 + pick(9000))", "--currency", "EUR", "--date", day], step: step)
                case 98..<100:
                    _ = try run(device, ["goal", "add", "Goal \(step)", "--target", "\(500 + pick(5000))", "--wallet", "Savings"], step: step)
                default:
                    if try run(device, ["tx", "add", "--wallet", "Cash", "--amount", amount, "--notes", key, "--date", day], step: step) {
                        own.append(Own(device: device, split: false, notes: key))
                    }
                }
            }
            let operated = Date()
            try Device.meet(devices + devices)
            let met = Date()

            let exports = try devices.map { try SyncTests.withoutLocalIds($0.export()) }
            #expect(exports[0] == exports[1] && exports[1] == exports[2], "seed \(seed): \(Self.countedDifference(exports))")
            // Nothing acknowledged was lost: each device's own transactions, as last edited, everywhere.
            let kept = Set(own.filter { !$0.deleted }.map(\.notes))
            for (index, device) in devices.enumerated() {
                let listed = try device.harness.client().call(TransactionListRequest(text: "op ", limit: 10_000)).transactions
                let listedNotes = listed.filter { $0.transfer == nil }.compactMap(\.notes).filter { $0.hasPrefix("op ") }
                let notes = Set(listedNotes)
                #expect(notes == kept, "seed \(seed), device \(names[index]): missing \(kept.subtracting(notes).sorted()), extra \(notes.subtracting(kept).sorted())")
                // Each note is one write's: a set hides a record doubled alike on every device
                // (which the exports' comparison cannot see either).
                let doubled = Dictionary(grouping: listedNotes, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
                #expect(doubled.isEmpty, "seed \(seed), device \(names[index]): held more than once: \(doubled)")
                // The later edit of each contested field won.
                for number in 0..<6 {
                    let record = try device.harness.client().call(TransactionGetRequest(id: contested[index][number] ?? 0))
                    if let notes = later["contest \(number) --notes"] { #expect(record.notes == notes, "seed \(seed), device \(names[index]): \(record.notes ?? "") is not the later edit \(notes)") }
                    if let amount = later["contest \(number) --amount"] { #expect(record.amount == amount, "seed \(seed), device \(names[index]): \(record.amount) is not the later edit \(amount)") }
                }
            }
            #expect(later.count >= 5, "seed \(seed): \(later)")

            // Quiet at idle, and few rows per write.
            let settled = try Self.hubRows(hub)
            Thread.sleep(forTimeInterval: 15)
            for device in devices { _ = try device.cli("sync", "now") }
            let idle = try Self.hubRows(hub)
            #expect(idle == settled, "seed \(seed): the hub grew from \(settled) to \(idle) rows while every device was idle")
            let perWrite = Double(settled - rowsBefore) / Double(max(acknowledged, 1))
            print(String(format: "seed %llu: %d writes acknowledged in %d operations (a contest is two), %d hub rows (%.2f per write), %d later edits checked; operations %.0f s, meeting %.0f s, in all %.0f s",
                         seed, acknowledged, operations, settled - rowsBefore, perWrite, later.count, operated.timeIntervalSince(began), met.timeIntervalSince(operated), Date().timeIntervalSince(began)))
            #expect(perWrite <= 2, "seed \(seed): \(settled - rowsBefore) hub rows for \(acknowledged) acknowledged writes")
        }

        /// Finding 3: the hub drops one of A's rows before B pulls it. B sees the gap in A's
        /// numbers, says so in `sync status` (and not `synced`) while A is away, asks for it, and
        /// once A is back the message is sent again and the two ledgers agree.
        @Test func aRowTheHubDroppedIsReportedAsAGapAndSentAgain() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            _ = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let b = try a.enableAndJoin(hub)
            let deviceA = try #require(try SyncCredentials.load(home: a.harness.home.root)).deviceId.uuidString.lowercased()

            b.harness.stop(.sync)
            for note in ["First", "Dropped by the hub", "Third"] {
                #expect(try a.cli("tx", "add", "--wallet", "Cash", "--amount", "1.00", "--notes", note, "--date", "2026-11-02").status == 0)
            }
            try a.waitUntilSynced()
            a.harness.stop(.sync)
            // A's last three changes: its heartbeat after them is of the smallest bucket (D520).
            let lastThree = try hub.psql("SELECT seq FROM ledgerly_messages WHERE device_id = '\(deviceA)' AND octet_length(sealed) > 300 ORDER BY seq DESC LIMIT 3", database: hub.database)
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lastThree.count == 3)
            _ = try hub.psql("DELETE FROM ledgerly_messages WHERE seq = \(lastThree[1])", database: hub.database)

            try b.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try b.harness.waitFor("the gap reported") {
                _ = try? b.cli("sync", "now")
                return try b.status().gaps?.first?.device == deviceA
            }
            #expect(try b.status().state != "synced")
            let shown = try b.cli("sync", "status").stdout
            #expect(shown.contains("Gap: device \(deviceA)"), "\(shown)")
            #expect(!(try b.cli("tx", "list").stdout.contains("Dropped by the hub")))

            try a.harness.start(.sync, extraArguments: ["--round-interval", "1"])
            try Device.meet([a, b, a, b])
            #expect(try b.status().gaps == nil)
            #expect(try b.cli("tx", "list").stdout.contains("Dropped by the hub"))
            #expect(try a.export() == b.export())
        }

        /// Findings 4 and 5: a row of random bytes put in the hub's table, and a change sealed with
        /// the ledger's key but carrying a clock in the year 2100. The random row is quarantined
        /// (counted and named in `sync status`) and later changes still arrive; the forged change
        /// is held, not applied, and the receiving device's own clock does not jump to 2100.
        @Test func aPoisonRowIsQuarantinedAndAFarFutureClockIsHeld() throws {
            let hub = try TemporaryPostgres()
            defer { hub.destroy() }
            let a = try Device(setUp: true)
            _ = try a.harness.client().call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "100"))
            let b = try a.enableAndJoin(hub)
            let credentials = try #require(try SyncCredentials.load(home: a.harness.home.root))
            let ledger = credentials.ledgerId.uuidString.lowercased()

            // Random bytes under a device and a clock of today.
            let stranger = try HostileHubRows.insertPoison(hub, ledger: ledger, byteCount: 200, milliseconds: Int64(Date().timeIntervalSince1970 * 1_000))

            // A new wallet, sealed with the ledger's key, from a device whose clock says 2100.
            let forger = try HostileHubRows.insertForgedWallet(hub, credentials: credentials, milliseconds: 4_102_444_800_000)

            // Later changes still arrive.
            #expect(try a.cli("tx", "add", "--wallet", "Cash", "--amount", "2.50", "--notes", "After the poison", "--date", "2026-11-04").status == 0)
            try Device.meet([a, b])
            for device in [a, b] {
                let status = try device.status()
                // Not `synced` while a change is held (issue 44 leftovers item 7, D492).
                #expect(status.state == "held", "\(status)")
                #expect(try device.cli("tx", "list").stdout.contains("After the poison"))
                #expect(status.quarantinedTotal == 1 && status.quarantined?.first?.device == stranger, "\(status)")
                #expect(status.heldTotal == 1 && status.held?.first?.device == forger.uuidString.lowercased(), "\(status)")
                #expect(try device.harness.client().call(WalletListRequest()).wallets.map(\.name) == ["Cash"])
                let shown = try device.cli("sync", "status").stdout
                #expect(shown.contains("Quarantined: 1 hub row") && shown.contains(stranger), "\(shown)")
                #expect(shown.contains("Held: 1 change") && shown.contains("2100-01-01"), "\(shown)")
            }

            // B's next change carries a clock of today, not of 2100.
            #expect(try b.cli("wallet", "add", "Travel", "--currency", "EUR").status == 0)
            try b.waitUntilSynced()
            let device = try #require(try SyncCredentials.load(home: b.harness.home.root)).deviceId.uuidString.lowercased()
            let newest = try hub.psql("SELECT max(hlc) FROM ledgerly_messages WHERE device_id = '\(device)'", database: hub.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let clock = try #require(HybridLogicalClock(newest))
            #expect(clock.milliseconds < Int64(Date().timeIntervalSince1970 * 1_000) + 60_000, "\(newest)")
        }
    }
}
