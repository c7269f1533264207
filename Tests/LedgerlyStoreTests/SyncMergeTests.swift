import Foundation
import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyStore
import Testing

/// Sync's merging, store to store, with the hub played by an array (the real hub is PostgreSQL,
/// tested with `ledgerly-sync`): what one store stamps, another applies, and every device ends
/// with the same ledger whatever order the devices worked in.
@Suite struct SyncMergeTests {
    static let ledger = "6f1c2a9e-3b7d-4c0e-9a55-0d2f3e4b5a61"

    /// The hub: every pushed message once, in push order.
    final class Hub {
        var messages: [SyncIncoming] = []

        /// Pushes everything `store` has to send.
        func push(_ store: Store) async throws {
            while true {
                let stamp = try await store.call(SyncStampRequest())
                let reply = try await store.call(SyncOutboxRequest(limit: 300))
                for entry in reply.entries where !messages.contains(where: { $0.message.device == entry.message.device && $0.message.hlc == entry.message.hlc }) {
                    messages.append(SyncIncoming(hubSeq: Int64(messages.count + 1), message: entry.message))
                }
                if let last = reply.entries.last { _ = try await store.call(SyncPushedRequest(throughId: last.id)) }
                if reply.entries.isEmpty && stamp.stampingDone { return }
            }
        }

        /// Applies everything after what `store` has applied, in batches.
        @discardableResult
        func pull(_ store: Store) async throws -> [String] {
            var notices: [String] = []
            let from = Int(try await store.call(SyncStatusRequest()).pulledSeq)
            for start in stride(from: from, to: messages.count, by: 7) {
                let reply = try await store.call(SyncApplyRequest(messages: Array(messages[start..<min(start + 7, messages.count)])))
                notices += reply.notices
            }
            return notices
        }

        /// A new device that joins the ledger and applies everything the hub holds.
        func join() async throws -> Store {
            let store = try await Store(setUp: false)
            _ = try await store.call(SyncEnableRequest(ledgerId: SyncMergeTests.ledger, deviceId: SyncMergeTests.device(), hub: "h", mode: .join))
            try await pull(store)
            return store
        }

        /// Stores back together: each pushes, then each pulls, twice (what one applied and
        /// changed, a rename or a withdrawal, goes round once more). The notices pulled.
        @discardableResult
        func meet(_ stores: [Store]) async throws -> [String] {
            var notices: [String] = []
            for _ in 0..<2 {
                for store in stores { try await push(store) }
                for store in stores { notices += try await pull(store) }
            }
            return notices
        }
    }

    static func device() -> String { UUID().uuidString.lowercased() }

    /// A ledger's visible state, ids included.
    static func snapshot(_ store: Store) async throws -> String {
        let wallets = try await store.call(WalletListRequest(includeArchived: true)).wallets
        let categories = try await store.call(CategoryListRequest()).categories
        let transactions = try await store.call(TransactionListRequest(limit: 1_000)).transactions
        let settings = try await store.call(SettingsGetRequest())
        struct State: Encodable {
            let wallets: [WalletRecord]
            let categories: [CategoryRecord]
            let transactions: [TransactionRecord]
            let base: String?
            let setUp: Bool
        }
        return try SyncFields.text(State(wallets: wallets, categories: categories, transactions: transactions, base: settings.baseCurrency, setUp: settings.onboardingCompleted))
    }

    /// A's ledger: wallets, a two-level category tree, plain, split, tagged, foreign and
    /// transfer transactions, one deleted (a gap in the ids).
    static func filledStore() async throws -> (Store, [String: Int64]) {
        let store = try await Store()
        var ids: [String: Int64] = [:]
        ids["cash"] = try await store.call(WalletCreateRequest(name: "Cash", currency: "EUR", startingBalance: "50")).id
        ids["bank"] = try await store.call(WalletCreateRequest(name: "Bank", currency: "EUR", startingBalance: "1000")).id
        ids["food"] = try await store.call(CategoryCreateRequest(name: "Food", kind: .expense)).id
        ids["groceries"] = try await store.call(CategoryCreateRequest(name: "Groceries", parentId: ids["food"])).id
        ids["salary"] = try await store.call(CategoryCreateRequest(name: "Salary", kind: .income)).id
        ids["lunch"] = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ids["cash"]!, amount: "12.50", categoryId: ids["food"], notes: "Lunch", date: "2026-11-02", tags: ["work"])).id
        let gone = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ids["cash"]!, amount: "1", date: "2026-11-02")).id
        _ = try await store.call(TransactionDeleteRequest(id: gone))
        ids["shop"] = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ids["bank"]!, amount: "30", notes: "Market", date: "2026-11-03",
                                                                    splits: [SplitPart(amount: "20", categoryId: ids["groceries"]!), SplitPart(amount: "10", categoryId: ids["food"]!, memo: "snacks")])).id
        ids["pay"] = try await store.call(TransactionCreateRequest(kind: .income, walletId: ids["bank"]!, amount: "2500", categoryId: ids["salary"], date: "2026-11-01")).id
        ids["abroad"] = try await store.call(TransactionCreateRequest(kind: .expense, walletId: ids["bank"]!, amount: "10", currency: "USD", rate: "0.9", notes: "Taxi", date: "2026-11-04")).id
        ids["transfer"] = try await store.call(TransferCreateRequest(fromWalletId: ids["bank"]!, toWalletId: ids["cash"]!, amount: "100", date: "2026-11-05", notes: "ATM")).outgoing.id
        return (store, ids)
    }

    @Test func aJoiningDeviceEndsWithTheSameLedgerAndIds() async throws {
        let (a, _) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "postgres://hub/ledgerly", mode: .create))
        try await hub.push(a)
        // Settings, the three rate profiles every ledger starts with, wallets, categories,
        // transactions, the transfer.
        let expected = 1 + 3 + 2 + 3 + 4 + 1
        #expect(hub.messages.count == expected)

        let b = try await Store(setUp: false)
        _ = try await b.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "postgres://hub/ledgerly", mode: .join))
        try await hub.pull(b)
        #expect(try await Self.snapshot(b) == Self.snapshot(a))
        // What B applied is not sent back; B's own starting profiles became A's, not copies.
        try await hub.push(b)
        #expect(hub.messages.count == expected)
        #expect(try await b.call(RateProfileListRequest()).profiles.count == 3)
        // Applying the same messages again changes nothing.
        let again = try await b.call(SyncApplyRequest(messages: hub.messages))
        #expect(again.applied == 0 && again.unchanged == hub.messages.count)
        #expect(try await Self.snapshot(b) == Self.snapshot(a))
    }

    /// A category moved on one device: the other device's `tx.list` counts follow it, since
    /// applying the move recomputes `split_subtree_counts` there too (D377).
    @Test func aSyncedCategoryMoveMovesItsSplitCounts() async throws {
        let (a, ids) = try await Self.filledStore()
        let household = try await a.call(CategoryCreateRequest(name: "Household", kind: .expense))
        // Parts in Groceries (under Food) and Household: Food's only through Groceries.
        _ = try await a.call(TransactionCreateRequest(kind: .expense, walletId: ids["bank"]!, amount: "8", date: "2026-11-06",
                                                      splits: [SplitPart(amount: "5", categoryId: ids["groceries"]!), SplitPart(amount: "3", categoryId: household.id)]))
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        try await hub.push(a)
        let b = try await hub.join()
        // November as a whole month: the count of split transactions comes from the kept table.
        let food = TransactionListRequest(categoryId: ids["food"], from: "2026-11-01", to: "2026-11-30", limit: 1)
        #expect(try await b.call(food).total == 3)  // lunch, the market's split, the new split
        _ = try await a.call(CategoryUpdateRequest(id: ids["groceries"]!, makeTopLevel: true))
        try await hub.meet([a, b])
        #expect(try await b.call(CategoryGetRequest(id: ids["groceries"]!)).parentId == nil)
        #expect(try await a.call(food).total == 2)
        #expect(try await b.call(food).total == 2)
    }

    @Test func aDeviceWithALedgerCannotJoinWithoutMerging() async throws {
        let (a, _) = try await Self.filledStore()
        let refusal = try await a.failure(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .join))
        #expect(refusal.code == .conflict && refusal.field == "body.mode")
        let bad = try await a.failure(SyncEnableRequest(ledgerId: "not-a-uuid", deviceId: Self.device(), hub: "h", mode: .create))
        #expect(bad.field == "body.ledgerId")
    }

    /// Two devices in sync, then apart: edits to different fields both survive, the same field
    /// keeps the later edit, a delete beats an edit, and same-named wallets are both kept.
    @Test func devicesApartConvergeByTheRules() async throws {
        let (a, ids) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        try await hub.push(a)
        let b = try await hub.join()

        // Apart.
        _ = try await a.call(TransactionUpdateRequest(id: ids["lunch"]!, notes: "Lunch with Ana"))
        _ = try await b.call(TransactionUpdateRequest(id: ids["lunch"]!, amount: "14.00"))
        _ = try await a.call(TransactionUpdateRequest(id: ids["pay"]!, notes: "from A"))
        try await Task.sleep(for: .milliseconds(5))
        _ = try await b.call(TransactionUpdateRequest(id: ids["pay"]!, notes: "from B, later"))
        _ = try await a.call(TransactionDeleteRequest(id: ids["abroad"]!))
        _ = try await b.call(TransactionUpdateRequest(id: ids["abroad"]!, notes: "Taxi home"))
        let cashA = try await a.call(WalletCreateRequest(name: "Wallet", currency: "EUR"))
        let cashB = try await b.call(WalletCreateRequest(name: "wallet", currency: "EUR"))
        #expect(cashA.id == cashB.id)  // the same local id for different wallets: ids are local

        try await hub.push(a)
        try await hub.push(b)
        let noticesA = try await hub.pull(a)
        let noticesB = try await hub.pull(b)
        // The renames made while applying go round once more.
        try await hub.push(a)
        try await hub.push(b)
        try await hub.pull(a)
        try await hub.pull(b)

        // Local ids differ where each device made a wallet apart; all else is the same.
        let stateA = try await Self.snapshot(a)
        let stateB = try await Self.snapshot(b)
        #expect(Self.withoutIds(stateA) == Self.withoutIds(stateB), "\(stateA)\n\(stateB)")
        let lunch = try await a.call(TransactionGetRequest(id: ids["lunch"]!))
        #expect(lunch.notes == "Lunch with Ana" && lunch.amount == "14.00")
        #expect(try await a.call(TransactionGetRequest(id: ids["pay"]!)).notes == "from B, later")
        #expect(try await b.failure(TransactionGetRequest(id: ids["abroad"]!)).code == .notFound)
        #expect(noticesB.contains { $0.contains("arrived after it was deleted") } || noticesA.contains { $0.contains("arrived after it was deleted") })
        let names = try await a.call(WalletListRequest()).wallets.map(\.name).sorted()
        #expect(names == ["Bank", "Cash", "Wallet", "wallet (2)"] || names == ["Bank", "Cash", "Wallet (2)", "wallet"], "\(names) \(noticesA) \(noticesB)")
        // A third device joining afterwards gets the same ledger.
        let c = try await hub.join()
        let stateC = try await Self.snapshot(c)
        #expect(Self.withoutIds(stateC) == Self.withoutIds(stateA))
        // Balances are the ledger's own: a check that each device's kept balance is its transactions.
        for store in [a, b, c] {
            for wallet in try await store.call(WalletListRequest(includeArchived: true)).wallets {
                let transactions = try await store.call(TransactionListRequest(walletId: wallet.id, limit: 1_000)).transactions
                var sum = Decimal(string: wallet.startingBalance) ?? 0
                for transaction in transactions {
                    let amount = Decimal(string: transaction.walletAmount) ?? 0
                    sum += transaction.kind == .income ? amount : -amount
                }
                #expect(Decimal(string: wallet.balance) == sum)
            }
        }
    }

    /// Goals: a month auto-funded on both devices while apart is one contribution and one
    /// transfer; same-named goals made apart are both kept; deleting the transfer on one device
    /// withdraws the contribution on both.
    @Test func goalsAndTheirAutoFundConverge() async throws {
        let (a, ids) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        let goal = try await a.call(GoalCreateRequest(name: "Trip", target: "1000", walletId: ids["cash"], autoFund: AutoFundRule(kind: .fixed, amount: "100", dayOfMonth: 1, fromWalletId: ids["bank"])))
        try await hub.push(a)
        let b = try await hub.join()
        #expect(try await b.call(GoalGetRequest(id: goal.id)).name == "Trip")

        // Apart: both fund this month; each makes a goal named like the other's.
        let month = String(Timestamp.today(at: Date()).prefix(7))
        let cash = { (store: Store) async throws -> Decimal? in
            try await store.call(WalletListRequest()).wallets.first { $0.id == ids["cash"] }.flatMap { Decimal(string: $0.balance) }
        }
        let cashBefore = try #require(try await cash(a))
        for store in [a, b] { _ = try await store.call(GoalAutoFundRequest(id: goal.id, month: month)) }
        _ = try await a.call(GoalCreateRequest(name: "Car", target: "5000"))
        _ = try await b.call(GoalCreateRequest(name: "car", target: "6000"))
        try await hub.meet([a, b])
        for store in [a, b] {
            #expect(try await store.call(GoalGetRequest(id: goal.id)).current == "100.00")
            let contributions = try await store.call(GoalContributionsRequest(id: goal.id)).contributions
            #expect(contributions.count == 1 && contributions.first?.autoFundMonth == month)
            #expect(try await cash(store) == cashBefore + 100)
            let names = try await store.call(GoalListRequest()).goals.map(\.name).sorted()
            #expect(names == ["Car", "Trip", "car (2)"] || names == ["Car (2)", "Trip", "car"], "\(names)")
        }
        let goalsA = try SyncFields.text(try await a.call(GoalListRequest()).goals)
        #expect(Self.withoutIds(goalsA) == Self.withoutIds(try SyncFields.text(try await b.call(GoalListRequest()).goals)))

        // The transfer deleted on B: the contribution stops counting on A too.
        let transfer = try #require(try await b.call(GoalContributionsRequest(id: goal.id)).contributions.first?.transactionId)
        _ = try await b.call(TransactionDeleteRequest(id: transfer))
        try await hub.meet([b, a])
        for store in [a, b] {
            #expect(try await store.call(GoalGetRequest(id: goal.id)).current == "0.00")
            #expect(try await store.call(GoalContributionsRequest(id: goal.id)).contributions.first?.withdrawnAt != nil)
            #expect(try await cash(store) == cashBefore)
        }
        let contributionsA = try SyncFields.text(try await a.call(GoalContributionsRequest(id: goal.id)).contributions)
        let contributionsB = try SyncFields.text(try await b.call(GoalContributionsRequest(id: goal.id)).contributions)
        #expect(Self.withoutIds(contributionsA) == Self.withoutIds(contributionsB), "\(contributionsA)\n\(contributionsB)")
        // Nothing more to send either way: the merge has settled.
        try await hub.push(a)
        try await hub.push(b)
        let settled = hub.messages.count
        try await hub.pull(a)
        try await hub.pull(b)
        try await hub.push(a)
        try await hub.push(b)
        #expect(hub.messages.count == settled)
    }

    /// Manual assets and liabilities: revaluations and payments two devices made apart are all
    /// kept (their histories are only ever added to); payments that together pay more than was
    /// owed are written with a notice, and a later balance set on either device is accepted.
    @Test func assetAndLiabilityHistoriesMadeApartAreBothKept() async throws {
        let (a, ids) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        let flat = try await a.call(ManualAssetCreateRequest(name: "Flat", value: "200000", currency: "EUR", valuedOn: "2026-01-01")).id
        let card = try await a.call(LiabilityCreateRequest(name: "Card", balance: "1000", currency: "EUR", balanceOn: "2026-11-01")).id
        try await hub.push(a)
        let b = try await hub.join()
        #expect(try await b.call(LiabilityGetRequest(id: card)).balance == "1000.00")

        // Apart.
        _ = try await a.call(ManualAssetRevalueRequest(id: flat, value: "210000", date: "2026-06-01"))
        _ = try await b.call(ManualAssetRevalueRequest(id: flat, value: "205000", date: "2026-03-01"))
        _ = try await a.call(LiabilityPayRequest(id: card, walletId: ids["bank"]!, amount: "600", date: "2026-11-10"))
        _ = try await b.call(LiabilityPayRequest(id: card, walletId: ids["bank"]!, amount: "600", date: "2026-11-11"))
        _ = try await a.call(ManualAssetCreateRequest(name: "Car", value: "9000", currency: "EUR", valuedOn: "2026-11-01"))
        _ = try await b.call(ManualAssetCreateRequest(name: "car", value: "8000", currency: "EUR", valuedOn: "2026-11-01"))
        let notices = try await hub.meet([a, b])
        #expect(notices.contains { $0.contains("pay off more than Card owed") }, "\(notices)")
        for store in [a, b] {
            let asset = try await store.call(ManualAssetGetRequest(id: flat))
            #expect(asset.valuations?.map(\.value) == ["200000.00", "205000.00", "210000.00"])
            let liability = try await store.call(LiabilityGetRequest(id: card))
            #expect(liability.history?.map(\.kind) == [.balance, .payment, .payment])
            #expect(liability.balance == "-200.00")
            let names = try await store.call(ManualAssetListRequest()).assets.map(\.name).sorted()
            #expect(names == ["Car", "Flat", "car (2)"] || names == ["Car (2)", "Flat", "car"], "\(names)")
        }
        let bank = { (store: Store) async throws -> String? in try await store.call(WalletListRequest()).wallets.first { $0.id == ids["bank"] }?.balance }
        #expect(try await bank(a) == bank(b))
        let worthA = try SyncFields.text(try await a.call(NetWorthRequest(at: "2026-11-20")).figures)
        #expect(worthA == (try SyncFields.text(try await b.call(NetWorthRequest(at: "2026-11-20")).figures)))

        // A balance set afterwards is accepted although the history dipped below zero before it.
        _ = try await b.call(LiabilityRevalueRequest(id: card, balance: "0", date: "2026-11-12"))
        try await hub.push(b)
        try await hub.pull(a)
        #expect(try await a.call(LiabilityGetRequest(id: card)).balance == "0.00")
    }

    /// Two goals made apart get the same local id on their own devices and different ones on the
    /// other: their milestone alerts stay two, each lands on its own goal everywhere (the key
    /// travels with the goal's global id), and a device's alerts service finds each one raised.
    @Test func alertKeysNameTheSameGoalOnEveryDevice() async throws {
        let (a, _) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        try await hub.push(a)
        let b = try await hub.join()
        let trip = try await a.call(GoalCreateRequest(name: "Trip", target: "1000", currency: "EUR")).id
        let car = try await b.call(GoalCreateRequest(name: "Car", target: "5000", currency: "EUR")).id
        #expect(trip == car)
        _ = try await a.call(AlertRaiseRequest(kind: .goalProgress, key: "goal:\(trip):50", subject: "Trip", message: "Trip is half-way"))
        _ = try await b.call(AlertRaiseRequest(kind: .goalProgress, key: "goal:\(car):50", subject: "Car", message: "Car is half-way"))
        try await hub.meet([a, b])
        for store in [a, b] {
            let goals = Dictionary(uniqueKeysWithValues: try await store.call(GoalListRequest()).goals.map { ($0.name, $0.id) })
            let alerts = try await store.call(AlertListRequest()).alerts.filter { $0.kind == .goalProgress }
            #expect(Set(alerts.map { "\($0.subject) \($0.key)" }) == ["Trip goal:\(goals["Trip"]!):50", "Car goal:\(goals["Car"]!):50"], "\(alerts)")
            for (name, id) in goals {
                let again = try await store.call(AlertRaiseRequest(kind: .goalProgress, key: "goal:\(id):50", subject: name, message: "\(name) is half-way"))
                #expect(again.duplicate, "\(name)")
            }
        }
    }

    /// An older device's alert whose key names a goal by local id may land on a key an alert here
    /// already has (another goal numbered alike): it is left out with a notice, and the batch,
    /// with the messages after it, still applies.
    @Test func anAlertKeyTakenHereIsLeftOutNotAFailedBatch() async throws {
        let (a, _) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        let trip = try await a.call(GoalCreateRequest(name: "Trip", target: "1000", currency: "EUR")).id
        _ = try await a.call(AlertRaiseRequest(kind: .goalProgress, key: "goal:\(trip):50", subject: "Trip", message: "Trip is half-way"))
        try await hub.push(a)
        let b = try await hub.join()
        let older = Self.device()
        let clock = "000001795262401000.000000.\(older)"
        let fields: [String: JSONValue] = ["kind": .string("goal.progress"), "key": .string("goal:\(trip):50"), "subject": .string("Car"),
                                           "message": .string("Car is half-way"), "raisedAt": .string("2026-11-20T10:00:00.000Z")]
        let clash = SyncMessage(entity: "alert", gid: "alert:goal:\(trip):50", hlc: clock, device: older, localId: 9, deleted: false,
                                fields: fields, clocks: fields.mapValues { _ in clock })
        let after = try await b.call(SyncStatusRequest()).pulledSeq
        let reply = try await b.call(SyncApplyRequest(messages: [SyncIncoming(hubSeq: after + 1, message: clash)]))
        #expect(reply.notices.contains { $0.contains("already has the key goal:\(trip):50") }, "\(reply.notices)")
        #expect(reply.pulledSeq == after + 1)
        #expect(try await b.call(AlertListRequest()).alerts.filter { $0.kind == .goalProgress }.map(\.subject) == ["Trip"])
    }

    /// Typed rates and rate profiles: the starting profiles are one on every device, a profile
    /// two devices made apart under one name is one, the same moment's rate typed on both keeps
    /// the later value, and which profile is in use follows the later choice.
    @Test func typedRatesAndProfilesConverge() async throws {
        let (a, _) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        let manual = try #require(try await a.call(RateProfileListRequest()).profiles.first { $0.name == "manual" }).id
        _ = try await a.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.91", profileId: manual, asOf: "2026-11-01"))
        try await hub.push(a)
        let b = try await hub.join()
        #expect(try await b.call(RateListRequest(profileId: manual)).rates.map(\.rate) == ["0.91"])

        // Apart.
        _ = try await a.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.92", profileId: manual, asOf: "2026-11-02"))
        try await Task.sleep(for: .milliseconds(5))
        _ = try await b.call(RateSetRequest(base: "USD", quote: "EUR", rate: "0.93", profileId: manual, asOf: "2026-11-02"))
        let streetA = try await a.call(RateProfileCreateRequest(name: "Street", type: .parallel, notes: "from A"))
        _ = try await b.call(RateProfileCreateRequest(name: "street", type: .parallel, notes: "from B"))
        try await Task.sleep(for: .milliseconds(5))
        _ = try await a.call(RateProfileUseRequest(id: streetA.id))
        try await hub.meet([a, b])
        for store in [a, b] {
            let rates = try await store.call(RateListRequest(profileId: manual)).rates
            #expect(rates.filter { $0.base == "USD" && $0.asOf.hasPrefix("2026-11-02") }.map(\.rate) == ["0.93"], "\(rates)")
            let profiles = try await store.call(RateProfileListRequest()).profiles
            #expect(profiles.count == 4)
            let parallel = profiles.filter { $0.type == .parallel }
            #expect(parallel.filter(\.isDefault).map { $0.name.lowercased() } == ["street"], "\(parallel)")
        }
        let profilesA = try SyncFields.text(try await a.call(RateProfileListRequest()).profiles.map { [$0.name, $0.notes ?? "", String($0.isDefault)] })
        #expect(profilesA == (try SyncFields.text(try await b.call(RateProfileListRequest()).profiles.map { [$0.name, $0.notes ?? "", String($0.isDefault)] })))
    }

    /// A month's snapshot taken on two devices: the one taken first stands on both, although the
    /// later one carries the newer clock; two rate profiles of one name and different types made
    /// apart are both kept, one renamed.
    @Test func theFirstSnapshotStandsAndProfilesOfOneNameButTwoTypesAreTwo() async throws {
        let (a, _) = try await Self.filledStore()
        let hub = Hub()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: Self.device(), hub: "h", mode: .create))
        try await hub.push(a)
        let b = try await hub.join()

        let month = LedgerMonth.previous(String(Timestamp.today(at: Date()).prefix(7)))
        let first = try await a.call(NetWorthSnapshotTakeRequest(month: month)).snapshot
        try await Task.sleep(for: .milliseconds(5))
        _ = try await b.call(NetWorthSnapshotTakeRequest(month: month))
        _ = try await a.call(RateProfileCreateRequest(name: "Black", type: .parallel))
        _ = try await b.call(RateProfileCreateRequest(name: "black", type: .manual))
        let notices = try await hub.meet([a, b])
        for store in [a, b] {
            let snapshots = try await store.call(NetWorthSnapshotListRequest(includeItems: true)).snapshots
            #expect(snapshots.map(\.takenAt) == [first.takenAt])
            let names = try await store.call(RateProfileListRequest()).profiles.filter { $0.name.lowercased().hasPrefix("black") }.map { "\($0.name) \($0.type.rawValue)" }.sorted()
            #expect(names == ["Black parallel", "black (2) manual"] || names == ["Black (2) parallel", "black manual"], "\(names)")
        }
        #expect(notices.contains { $0.contains("rate_profile named") }, "\(notices)")
    }

    /// Disabling keeps everything; enabling the same ledger again sends only what changed.
    @Test func disablingAndEnablingAgainSendsNoDuplicates() async throws {
        let (a, ids) = try await Self.filledStore()
        let hub = Hub()
        let device = Self.device()
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: device, hub: "h", mode: .create))
        try await hub.push(a)
        let sent = hub.messages.count
        #expect(try await a.call(SyncDisableRequest()).state == "off")
        #expect(try await a.failure(SyncStampRequest()).code == .conflict)
        #expect(try await a.failure(SyncOutboxRequest()).code == .conflict)
        _ = try await a.call(TransactionUpdateRequest(id: ids["lunch"]!, notes: "changed while off"))
        #expect(try await a.call(WalletListRequest()).wallets.count == 2)
        _ = try await a.call(SyncEnableRequest(ledgerId: Self.ledger, deviceId: device, hub: "h", mode: .create))
        try await hub.push(a)
        #expect(hub.messages.count == sent + 1)
        #expect(hub.messages.last?.message.fields["notes"] == .string("changed while off"))
    }
}

extension SyncMergeTests {
    /// A state with local ids taken out (a device that joined after concurrent creations may
    /// number things differently).
    static func withoutIds(_ text: String) -> String {
        text.replacingOccurrences(of: #""(id|walletId|categoryId|parentId|counterpartyTransactionId|counterpartyWalletId|goalId|transactionId)":\d+"#, with: "", options: .regularExpression)
    }
}
