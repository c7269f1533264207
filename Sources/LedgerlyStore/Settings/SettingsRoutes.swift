import LedgerlyProtocol

extension StoreRouteTable {
    /// Settings and first-run setup. `setup.complete` opens the setup gate once it has committed.
    mutating func addSettingsRoutes() {
        read(SettingsGetRequest.self, SettingsHandlers.get)
        write(SettingsUpdateRequest.self, SettingsHandlers.update)
        write(SetupSaveRequest.self, SettingsHandlers.save)
        write(SetupCompleteRequest.self, SettingsHandlers.complete, after: { $0.setupGate.open() })
    }
}
