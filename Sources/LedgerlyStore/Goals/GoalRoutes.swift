import LedgerlyProtocol

extension StoreRouteTable {
    mutating func addGoalRoutes() {
        write(GoalCreateRequest.self, GoalHandlers.create)
        read(GoalListRequest.self, GoalHandlers.list)
        read(GoalGetRequest.self) { request, context in try GoalHandlers.fetch(context.db, id: try InputRules.positiveId(request.id, field: .body("id")), field: .body("id"), today: context.today) }
        write(GoalFundRequest.self, GoalHandlers.fund)
        write(GoalAutoFundRequest.self, GoalHandlers.autoFund)
        read(GoalContributionsRequest.self, GoalHandlers.contributions)
    }
}
