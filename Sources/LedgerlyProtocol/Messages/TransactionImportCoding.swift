import FoundationEssentials
import LedgerlyCore

/// Writes a `tx.import` request frame by hand: exactly the bytes `MessageCoding.encode` gives
/// (keys sorted, slashes not escaped, nil members left out), without Foundation's `JSONEncoder`.
///
/// Why: `ledgerly import json` sends a million transactions with the amounts and rates they
/// were recorded with, and encoding the batches with `JSONEncoder` was three quarters of the
/// command's CPU (18 s at a million) on a machine whose other core runs the store (D359).
/// `TransactionImportCodingTests` checks the bytes against `JSONEncoder`'s on generated batches.
public enum TransactionImportCoding {
    public static func encode(_ envelope: Envelope<TransactionImportRequest>) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(envelope.body.items.count * 700 + 256)
        out.append(ascii: "{")
        var comma = false
        out.jsonKey("body", comma: &comma)
        append(envelope.body, to: &out)
        out.jsonKey("id", comma: &comma); out.jsonString(envelope.id)
        if let key = envelope.key { out.jsonKey("key", comma: &comma); out.jsonString(key) }
        if let re = envelope.re { out.jsonKey("re", comma: &comma); out.jsonString(re) }
        out.jsonKey("ts", comma: &comma); out.jsonString(envelope.ts)
        out.jsonKey("type", comma: &comma); out.jsonString(envelope.type)
        out.jsonKey("v", comma: &comma); out.jsonInteger(Int64(envelope.v))
        out.append(ascii: "}")
        return Data(out)
    }

    private static func append(_ request: TransactionImportRequest, to out: inout [UInt8]) {
        out.append(ascii: "{")
        var comma = false
        if let dryRun = request.dryRun { out.jsonKey("dryRun", comma: &comma); out.jsonBoolean(dryRun) }
        out.jsonKey("importId", comma: &comma); out.jsonString(request.importId)
        out.jsonKey("items", comma: &comma)
        out.append(ascii: "[")
        var snapshots = TransactionExportCoding.SnapshotBytes()
        for (index, item) in request.items.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            append(item, to: &out, snapshots: &snapshots)
        }
        out.append(ascii: "]")
        out.append(ascii: "}")
    }

    private static func append(_ item: TransactionImportItem, to out: inout [UInt8], snapshots: inout TransactionExportCoding.SnapshotBytes) {
        out.append(ascii: "{")
        var comma = false
        if let key = item.importKey { out.jsonKey("importKey", comma: &comma); out.jsonString(key) }
        if let kept = item.kept {
            out.jsonKey("kept", comma: &comma)
            out.append(ascii: "{")
            var inner = false
            if let value = kept.baseAmount { out.jsonKey("baseAmount", comma: &inner); out.jsonString(value) }
            if let value = kept.baseConversion { out.jsonKey("baseConversion", comma: &inner); snapshots.append(value, to: &out) }
            if let value = kept.conversion { out.jsonKey("conversion", comma: &inner); snapshots.append(value, to: &out) }
            if let value = kept.createdAt { out.jsonKey("createdAt", comma: &inner); out.jsonString(value) }
            if let value = kept.id { out.jsonKey("id", comma: &inner); out.jsonInteger(value) }
            if let value = kept.importId { out.jsonKey("importId", comma: &inner); out.jsonString(value) }
            if let value = kept.incomingBaseAmount { out.jsonKey("incomingBaseAmount", comma: &inner); out.jsonString(value) }
            if let value = kept.incomingBaseConversion { out.jsonKey("incomingBaseConversion", comma: &inner); snapshots.append(value, to: &out) }
            if let value = kept.incomingId { out.jsonKey("incomingId", comma: &inner); out.jsonInteger(value) }
            if let value = kept.updatedAt { out.jsonKey("updatedAt", comma: &inner); out.jsonString(value) }
            if let value = kept.walletAmount { out.jsonKey("walletAmount", comma: &inner); out.jsonString(value) }
            out.append(ascii: "}")
        }
        if let line = item.line { out.jsonKey("line", comma: &comma); out.jsonInteger(Int64(line)) }
        if let transaction = item.transaction {
            out.jsonKey("transaction", comma: &comma)
            out.append(ascii: "{")
            var inner = false
            out.jsonKey("amount", comma: &inner); out.jsonString(transaction.amount)
            if let value = transaction.attachmentPath { out.jsonKey("attachmentPath", comma: &inner); out.jsonString(value) }
            if let value = transaction.categoryId { out.jsonKey("categoryId", comma: &inner); out.jsonInteger(value) }
            if let value = transaction.currency { out.jsonKey("currency", comma: &inner); out.jsonString(value) }
            out.jsonKey("date", comma: &inner); out.jsonString(transaction.date)
            out.jsonKey("kind", comma: &inner); out.jsonString(transaction.kind.rawValue)
            if let value = transaction.notes { out.jsonKey("notes", comma: &inner); out.jsonString(value) }
            if let value = transaction.rate { out.jsonKey("rate", comma: &inner); out.jsonString(value) }
            if let splits = transaction.splits {
                out.jsonKey("splits", comma: &inner)
                out.append(ascii: "[")
                for (index, split) in splits.enumerated() {
                    if index > 0 { out.append(ascii: ",") }
                    var part = false
                    out.append(ascii: "{")
                    out.jsonKey("amount", comma: &part); out.jsonString(split.amount)
                    out.jsonKey("categoryId", comma: &part); out.jsonInteger(split.categoryId)
                    if let memo = split.memo { out.jsonKey("memo", comma: &part); out.jsonString(memo) }
                    out.append(ascii: "}")
                }
                out.append(ascii: "]")
            }
            if let tags = transaction.tags { out.jsonKey("tags", comma: &inner); appendStrings(tags, to: &out) }
            out.jsonKey("walletId", comma: &inner); out.jsonInteger(transaction.walletId)
            out.append(ascii: "}")
        }
        if let transfer = item.transfer {
            out.jsonKey("transfer", comma: &comma)
            out.append(ascii: "{")
            var inner = false
            out.jsonKey("amount", comma: &inner); out.jsonString(transfer.amount)
            out.jsonKey("date", comma: &inner); out.jsonString(transfer.date)
            out.jsonKey("fromWalletId", comma: &inner); out.jsonInteger(transfer.fromWalletId)
            if let value = transfer.notes { out.jsonKey("notes", comma: &inner); out.jsonString(value) }
            if let tags = transfer.tags { out.jsonKey("tags", comma: &inner); appendStrings(tags, to: &out) }
            if let value = transfer.toAmount { out.jsonKey("toAmount", comma: &inner); out.jsonString(value) }
            out.jsonKey("toWalletId", comma: &inner); out.jsonInteger(transfer.toWalletId)
            out.append(ascii: "}")
        }
        out.append(ascii: "}")
    }

    private static func appendStrings(_ values: [String], to out: inout [UInt8]) {
        out.append(ascii: "[")
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(ascii: ",") }
            out.jsonString(value)
        }
        out.append(ascii: "]")
    }
}

// MARK: Reading

extension TransactionImportRequest: SentJSONDecodable {
    /// The body read from the frame the store has already parsed, member by member as
    /// `JSONDecoder` would read it; nil at the first thing it would not accept (a missing or
    /// mistyped field, an unknown kind), and `JSONDecoder` then reads it again to word the error.
    /// A member the type does not know gives nil too, at any depth, unless its value is null
    /// (what `RequestDecoding`'s strict check lets through): a body read here has no unknown
    /// field, so that check is skipped for it, and one with an unknown field goes the slow way,
    /// where the check names it (D382).
    /// Why: decoding a batch with `JSONDecoder` was a third of the store's CPU in
    /// `ledgerly import json` (14 s at a million, D359).
    public init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        var importId: String?, items: [TransactionImportItem]?, dryRun: Bool?
        for member in members {
            let value = member.value
            switch member.key {
            case "importId": guard let read = value.string else { return nil }; importId = read
            case "items": guard let read = value.array(TransactionImportItem.init(sent:)) else { return nil }; items = read
            case "dryRun": guard let read = value.optionalBool else { return nil }; dryRun = read
            default: guard value.isNull else { return nil }
            }
        }
        guard let importId, let items else { return nil }
        self.init(importId: importId, items: items, dryRun: dryRun)
    }
}

extension TransactionImportItem {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        self.init()
        for member in members {
            let value = member.value
            switch member.key {
            case "line": guard let read = value.optionalInteger else { return nil }; line = read.map(Int.init)
            case "importKey": guard let read = value.optionalString else { return nil }; importKey = read
            case "transaction": guard let read = value.optional(TransactionCreateRequest.init(sent:)) else { return nil }; transaction = read
            case "transfer": guard let read = value.optional(TransferCreateRequest.init(sent:)) else { return nil }; transfer = read
            case "kept": guard let read = value.optional(KeptAmounts.init(sent:)) else { return nil }; kept = read
            default: guard value.isNull else { return nil }
            }
        }
    }
}

extension TransactionCreateRequest {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        var kind: TransactionKind?, walletId: Int64?, amount: String?, date: String?
        var currency: String?, rate: String?, categoryId: Int64?, notes: String?, tags: [String]?, attachmentPath: String?, splits: [SplitPart]?
        for member in members {
            let value = member.value
            switch member.key {
            case "kind": guard let text = value.string, let read = TransactionKind(rawValue: text) else { return nil }; kind = read
            case "walletId": guard let read = value.integer else { return nil }; walletId = read
            case "amount": guard let read = value.string else { return nil }; amount = read
            case "date": guard let read = value.string else { return nil }; date = read
            case "currency": guard let read = value.optionalString else { return nil }; currency = read
            case "rate": guard let read = value.optionalString else { return nil }; rate = read
            case "categoryId": guard let read = value.optionalInteger else { return nil }; categoryId = read
            case "notes": guard let read = value.optionalString else { return nil }; notes = read
            case "attachmentPath": guard let read = value.optionalString else { return nil }; attachmentPath = read
            case "tags": guard let read = value.optional({ $0.array(\.string) }) else { return nil }; tags = read
            case "splits": guard let read = value.optional({ $0.array(SplitPart.init(sent:)) }) else { return nil }; splits = read
            default: guard value.isNull else { return nil }
            }
        }
        guard let kind, let walletId, let amount, let date else { return nil }
        self.init(kind: kind, walletId: walletId, amount: amount, currency: currency, rate: rate, categoryId: categoryId, notes: notes, date: date,
                  tags: tags, attachmentPath: attachmentPath, splits: splits)
    }
}

extension TransferCreateRequest {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        var fromWalletId: Int64?, toWalletId: Int64?, amount: String?, date: String?, toAmount: String?, notes: String?, tags: [String]?
        for member in members {
            let value = member.value
            switch member.key {
            case "fromWalletId": guard let read = value.integer else { return nil }; fromWalletId = read
            case "toWalletId": guard let read = value.integer else { return nil }; toWalletId = read
            case "amount": guard let read = value.string else { return nil }; amount = read
            case "date": guard let read = value.string else { return nil }; date = read
            case "toAmount": guard let read = value.optionalString else { return nil }; toAmount = read
            case "notes": guard let read = value.optionalString else { return nil }; notes = read
            case "tags": guard let read = value.optional({ $0.array(\.string) }) else { return nil }; tags = read
            default: guard value.isNull else { return nil }
            }
        }
        guard let fromWalletId, let toWalletId, let amount, let date else { return nil }
        self.init(fromWalletId: fromWalletId, toWalletId: toWalletId, amount: amount, toAmount: toAmount, date: date, notes: notes, tags: tags)
    }
}

extension SplitPart {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        var amount: String?, categoryId: Int64?, memo: String?
        for member in members {
            let value = member.value
            switch member.key {
            case "amount": guard let read = value.string else { return nil }; amount = read
            case "categoryId": guard let read = value.integer else { return nil }; categoryId = read
            case "memo": guard let read = value.optionalString else { return nil }; memo = read
            default: guard value.isNull else { return nil }
            }
        }
        guard let amount, let categoryId else { return nil }
        self.init(amount: amount, categoryId: categoryId, memo: memo)
    }
}

extension KeptAmounts {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        self.init()
        for member in members {
            let value = member.value
            switch member.key {
            case "walletAmount": guard let read = value.optionalString else { return nil }; walletAmount = read
            case "baseAmount": guard let read = value.optionalString else { return nil }; baseAmount = read
            case "incomingBaseAmount": guard let read = value.optionalString else { return nil }; incomingBaseAmount = read
            case "importId": guard let read = value.optionalString else { return nil }; importId = read
            case "createdAt": guard let read = value.optionalString else { return nil }; createdAt = read
            case "updatedAt": guard let read = value.optionalString else { return nil }; updatedAt = read
            case "id": guard let read = value.optionalInteger else { return nil }; id = read
            case "incomingId": guard let read = value.optionalInteger else { return nil }; incomingId = read
            case "conversion": guard let read = value.optional(RateSnapshot.init(sent:)) else { return nil }; conversion = read
            case "baseConversion": guard let read = value.optional(RateSnapshot.init(sent:)) else { return nil }; baseConversion = read
            case "incomingBaseConversion": guard let read = value.optional(RateSnapshot.init(sent:)) else { return nil }; incomingBaseConversion = read
            default: guard value.isNull else { return nil }
            }
        }
    }
}

extension RateSnapshot {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        var base: String?, quote: String?, rate: String?, source: String?, asOf: String?, override: Bool?, stale: Bool?
        var profileId: Int64?, profileName: String?, legs: [RateSnapshotLeg]?
        for member in members {
            let value = member.value
            switch member.key {
            case "base": guard let read = value.string else { return nil }; base = read
            case "quote": guard let read = value.string else { return nil }; quote = read
            case "rate": guard let read = value.string else { return nil }; rate = read
            case "source": guard let read = value.string else { return nil }; source = read
            case "asOf": guard let read = value.string else { return nil }; asOf = read
            case "override": guard let read = value.bool else { return nil }; override = read
            case "stale": guard let read = value.bool else { return nil }; stale = read
            case "profileId": guard let read = value.optionalInteger else { return nil }; profileId = read
            case "profileName": guard let read = value.optionalString else { return nil }; profileName = read
            case "legs": guard let read = value.optional({ $0.array(RateSnapshotLeg.init(sent:)) }) else { return nil }; legs = read
            default: guard value.isNull else { return nil }
            }
        }
        guard let base, let quote, let rate, let source, let asOf, let override, let stale else { return nil }
        self.init(base: base, quote: quote, rate: rate, profileId: profileId, profileName: profileName, source: source, asOf: asOf, override: override, stale: stale, legs: legs)
    }
}

extension RateSnapshotLeg {
    init?(sent: SentJSON) {
        guard case .object(let members) = sent else { return nil }
        var base: String?, quote: String?, rate: String?, inverted: Bool?
        for member in members {
            let value = member.value
            switch member.key {
            case "base": guard let read = value.string else { return nil }; base = read
            case "quote": guard let read = value.string else { return nil }; quote = read
            case "rate": guard let read = value.string else { return nil }; rate = read
            case "inverted": guard let read = value.bool else { return nil }; inverted = read
            default: guard value.isNull else { return nil }
            }
        }
        guard let base, let quote, let rate, let inverted else { return nil }
        self.init(base: base, quote: quote, rate: rate, inverted: inverted)
    }
}
