/// Which form field a store refusal is about, for the rates, converter and budget forms: the
/// store names a field by its path in the request ("body.asOf"), the form by its own names
/// ("day"), so the message goes beside the field the person typed into (D519).
struct StoreFieldMapping: Sendable, Equatable {
    /// Request field name → form field name; a request field not listed keeps its name.
    let names: [String: String]
    /// The form's own fields: a store field that maps to none of them goes above the form.
    let formFields: Set<String>

    /// `rates.set` from the `/rates` form.
    static let rateSet = StoreFieldMapping(names: ["asOf": "day", "profileId": "profile"], formFields: ["base", "quote", "rate", "day", "profile"])
    /// `convert` from the `/convert` form.
    static let convert = StoreFieldMapping(names: ["at": "day", "profileId": "day", "mode": "day"], formFields: ["amount", "from", "to", "day"])
    /// `budget.set` from the `/budgets` form.
    static let budgetSet = StoreFieldMapping(names: ["categoryId": "category", "limit": "amount", "currency": "amount", "carryOver": "carry_over"],
                                             formFields: ["category", "amount", "carry_over"])

    /// The form field `storeField` ("body.limit", "body.rates[0].rate") is about; "_form" when none.
    func formField(forStoreField storeField: String?) -> String {
        guard var field = storeField else { return "_form" }
        if field.hasPrefix("body.") { field.removeFirst("body.".count) }
        if let bracket = field.firstIndex(of: "[") { field = String(field[..<bracket]) }
        if let dot = field.firstIndex(of: ".") { field = String(field[..<dot]) }
        let name = names[field] ?? field
        return formFields.contains(name) ? name : "_form"
    }
}
