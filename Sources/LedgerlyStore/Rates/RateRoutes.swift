import LedgerlyProtocol

extension StoreRouteTable {
    /// Rate profiles, rates, their history, and what the providers report.
    mutating func addRateRoutes() {
        read(RateProfileListRequest.self, RateHandlers.listProfiles)
        write(RateProfileCreateRequest.self, RateHandlers.createProfile)
        write(RateProfileUseRequest.self, RateHandlers.useProfile)
        write(RateSetRequest.self, RateHandlers.set)
        read(RateListRequest.self, RateHandlers.list)
        read(RateHistoryRequest.self, RateHandlers.history)
        write(RateBatchRequest.self, RateHandlers.batch)
        read(RateExportRequest.self, RateHistoryHandlers.export)
        write(RateRestoreRequest.self, RateHistoryHandlers.restore)
        write(RateOverrideEndRequest.self, RateHandlers.endOverride)
        read(RatesWaitingRequest.self, RateHandlers.waiting)
        write(RateProviderReportRequest.self, RateProviderHandlers.report)
        read(RateProviderListRequest.self, RateProviderHandlers.list)
        write(RateProviderForgetRequest.self, RateProviderHandlers.forget)
    }
}
