extension StoreFieldMapping {
    /// `asset.revalue` from the valuation form.
    static let assetRevalue = StoreFieldMapping(names: [:], formFields: ["value", "date", "notes"])
    /// `liability.pay` from the payment form.
    static let liabilityPay = StoreFieldMapping(names: ["walletId": "wallet", "walletAmount": "wallet_amount"], formFields: ["amount", "wallet", "wallet_amount", "date", "notes"])
}
