/// The field lists of `tx.import` and everything it nests (see `KnownFields`).

extension TransactionImportRequest: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = ["importId": nil, "items": TransactionImportItem.self, "dryRun": nil]
}

extension TransactionImportItem: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = [
        "line": nil, "importKey": nil, "transaction": TransactionCreateRequest.self, "transfer": TransferCreateRequest.self, "kept": KeptAmounts.self,
    ]
}

extension TransactionCreateRequest: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = [
        "kind": nil, "walletId": nil, "amount": nil, "currency": nil, "rate": nil, "categoryId": nil, "notes": nil, "date": nil,
        "tags": nil, "attachmentPath": nil, "splits": SplitPart.self,
    ]
}

extension TransferCreateRequest: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = [
        "fromWalletId": nil, "toWalletId": nil, "amount": nil, "toAmount": nil, "date": nil, "notes": nil, "tags": nil,
    ]
}

extension SplitPart: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = ["amount": nil, "categoryId": nil, "memo": nil]
}

extension KeptAmounts: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = [
        "walletAmount": nil, "baseAmount": nil, "conversion": RateSnapshot.self, "baseConversion": RateSnapshot.self, "incomingBaseAmount": nil, "incomingBaseConversion": RateSnapshot.self,
        "id": nil, "incomingId": nil, "importId": nil, "createdAt": nil, "updatedAt": nil,
    ]
}

extension RateSnapshot: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = [
        "base": nil, "quote": nil, "rate": nil, "profileId": nil, "profileName": nil, "source": nil, "asOf": nil, "override": nil, "stale": nil,
        "legs": RateSnapshotLeg.self,
    ]
}

extension RateSnapshotLeg: KnownFields {
    public static let fields: [String: (any KnownFields.Type)?] = ["base": nil, "quote": nil, "rate": nil, "inverted": nil]
}
