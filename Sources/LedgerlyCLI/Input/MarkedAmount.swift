import ArgumentParser

/// An amount as read, and the currency its mark named.
struct MarkedAmount {
    let amount: String
    let currency: String?

    /// The currency to send: the mark's, or `--currency`; both must agree.
    func currency(given: String?) throws -> String? {
        guard let currency else { return given }
        if let given, given.uppercased() != currency {
            throw ValidationError("the amount is marked \(currency) but --currency is \(given)")
        }
        return currency
    }
}
