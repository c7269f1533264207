extension StoreFieldMapping {
    /// `report.categories` and `report.cashflow` from their range forms (months).
    static let reportRange = StoreFieldMapping(names: [:], formFields: ["from", "to", "kind"])
    /// `report.payees` from its form (days, kind, how many).
    static let payeeReport = StoreFieldMapping(names: [:], formFields: ["from", "to", "kind", "limit"])
}
