import LedgerlyCore
import LedgerlyProtocol
@testable import LedgerlyWeb
import Testing

/// The pure parts of /goals, /recurring and /alerts: the occurrences after a recurring rule's next
/// run (D582), the slice of the alert log a page shows (D584), the goal bar's value and where a
/// `goal.fund` refusal goes (D580).
@Suite struct PlansPagesTests {
    static func rule(_ frequency: RecurrenceFrequency, every: Int = 1, start: String, next: String?, end: String? = nil) -> RecurringRecord {
        RecurringRecord(id: 1, name: "Rent", template: RecurringTemplate(kind: .expense, walletId: 1, amount: "1200"), frequency: frequency, every: every,
                        startDate: start, endDate: end, nextRun: next, mode: .post, paused: false, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z")
    }

    @Test func aMonthlyRuleOnThe31stComesBackToThe31st() {
        let rent = Self.rule(.monthly, start: "2026-01-31", next: "2026-02-28")
        #expect(RecurringSchedule.following(rent, count: 2) == ["2026-03-31", "2026-04-30"])
    }

    @Test func followingCountsFromTheStartWhateverHowLongAgo() {
        let daily = Self.rule(.daily, every: 3, start: "2001-01-01", next: "2026-12-08")
        let after = RecurringSchedule.following(daily, count: 2)
        #expect(after.count == 2)
        #expect(after.allSatisfy { $0 > "2026-12-08" })
        let weekly = Self.rule(.weekly, every: 2, start: "2026-11-02", next: "2026-12-14")
        #expect(RecurringSchedule.following(weekly, count: 2) == ["2026-12-28", "2027-01-11"])
        let yearly = Self.rule(.yearly, start: "2024-02-29", next: "2026-02-28")
        #expect(RecurringSchedule.following(yearly, count: 2) == ["2027-02-28", "2028-02-29"])
    }

    @Test func nothingPastTheEndNorAfterAnEndedRule() {
        let ending = Self.rule(.monthly, start: "2026-01-15", next: "2026-11-15", end: "2026-12-20")
        #expect(RecurringSchedule.following(ending, count: 3) == ["2026-12-15"])
        let ended = Self.rule(.monthly, start: "2026-01-15", next: nil, end: "2026-06-30")
        #expect(RecurringSchedule.following(ended, count: 3).isEmpty)
    }

    /// Pausing a rule deleted meanwhile is refused by the store; with no row to stand beside,
    /// the refusal is shown above the list (before, the page answered 422 and showed nothing).
    @Test func aRefusalAboutARuleNoLongerListedIsStillShown() {
        let listed = [Self.rule(.monthly, start: "2026-01-01", next: "2026-02-01")]
        #expect(RecurringPage.unplaced([1: "beside rule 1"], listed: listed).isEmpty)
        #expect(RecurringPage.unplaced([1: "beside rule 1", 7: "no recurring transaction 7"], listed: listed) == ["no recurring transaction 7"])
        #expect(RecurringPage.unplaced([9: "b", 8: "a"], listed: []) == ["a", "b"])
    }

    static func alerts(_ ids: ClosedRange<Int64>) -> [AlertRecord] {
        ids.map { AlertRecord(id: $0, kind: .budgetThreshold, key: "k\($0)", subject: "s", message: "m", period: nil, threshold: nil, data: nil, raisedAt: "2026-12-01T00:00:00Z") }
    }

    @Test func eachAlertPageShowsItsSliceNewestFirst() {
        // The newest 2 × 3 of alerts 1…8, oldest first: 3…8.
        let newest = Self.alerts(3...8)
        #expect(AlertsPage.slice(newest, page: 1, pageSize: 3).map(\.id) == [8, 7, 6])
        #expect(AlertsPage.slice(newest, page: 2, pageSize: 3).map(\.id) == [5, 4, 3])
        #expect(AlertsPage.slice(Self.alerts(1...4), page: 2, pageSize: 3).map(\.id) == [1])
        #expect(AlertsPage.slice(Self.alerts(1...2), page: 2, pageSize: 3).isEmpty)
    }

    @Test func aPageNumberIsReadOrTheFirst() {
        #expect(AlertsPage.pageNumber(nil) == 1)
        #expect(AlertsPage.pageNumber("0") == 1)
        #expect(AlertsPage.pageNumber("abc") == 1)
        #expect(AlertsPage.pageNumber("3") == 3)
        #expect(AlertsPage.pageNumber("999999") == AlertsPage.deepestAlert / 50)
    }

    /// The deepest page asks for `alert.list`'s largest limit, not one more, so a full answer
    /// there says where older alerts are (D584); before, that branch could never be taken.
    @Test func theDeepestAlertPageSaysWhereOlderOnesAre() {
        let deepest = AlertsPage.deepestAlert / WebLimits.pageSize
        #expect(AlertsPage.requestLimit(page: 1) == WebLimits.pageSize + 1)
        #expect(AlertsPage.requestLimit(page: deepest) == AlertsPage.deepestAlert)
        #expect(AlertsPage.older(page: 1, received: WebLimits.pageSize + 1) == .page)
        #expect(AlertsPage.older(page: 1, received: WebLimits.pageSize) == .none)
        #expect(AlertsPage.older(page: deepest - 1, received: AlertsPage.requestLimit(page: deepest - 1)) == .page)
        #expect(AlertsPage.older(page: deepest, received: AlertsPage.requestLimit(page: deepest)) == .beyondTheDeepest)
        #expect(AlertsPage.older(page: deepest, received: AlertsPage.deepestAlert - 1) == .none)
    }

    @Test func theGoalBarKeepsTheStoresDigits() {
        #expect(GoalsPage.progressValue("42.5") == "42.5")
        #expect(GoalsPage.progressValue("137.0") == "100")
        #expect(GoalsPage.progressValue("nonsense") == "0")
    }

    @Test func aGoalFundRefusalGoesBesideItsField() {
        #expect(StoreFieldMapping.goalFund.formField(forStoreField: "body.amount") == "amount")
        #expect(StoreFieldMapping.goalFund.formField(forStoreField: "body.id") == "goal")
        #expect(StoreFieldMapping.goalFund.formField(forStoreField: "body.fromWalletId") == "from")
        #expect(StoreFieldMapping.goalFund.formField(forStoreField: "body.date") == "date")
        #expect(StoreFieldMapping.goalFund.formField(forStoreField: nil) == "_form")
    }
}
