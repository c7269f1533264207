import Foundation
import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Works out what recording a new transaction or transfer needs before anything is written:
/// the checks that read only the ledger's wallets, categories and settings, and the conversions
/// with the rates in force. `TransactionWriter` records what it plans.
///
/// Why apart from the writer: a `tx.import` batch is planned on the store's decoding thread,
/// on a read snapshot, while the applying thread writes the batch before it; the conversions
/// and checks were a fifth of the applying thread, the one the load waits for (D370,
/// `ImportPlan`). It reads from `db` and remembers what it read for its own lifetime only.
final class TransactionPlanner {
    let db: Database
    let rates = ConversionCache()
    private var wallets: [Int64: WalletRecord] = [:]
    private var knownCategories = Set<Int64>()

    init(db: Database) { self.db = db }

    /// Checks a new transaction in `insert`'s order and converts it. The conversion's failure
    /// is kept, not thrown, since the writer checks the tags first (`PlannedTransaction`).
    /// `now`: the moment whose rates convert a transaction dated today or later.
    func plan(_ request: TransactionCreateRequest, kept: KeptAmounts?, now: Date) throws -> PlannedTransaction {
        let wallet = try activeWallet(request.walletId, field: .body("walletId"))
        let currency = try InputRules.currency(request.currency ?? wallet.currency, field: .body("currency"))
        let amount = try InputRules.positiveAmount(request.amount, currency: currency, field: .body("amount"))
        let date = try InputRules.date(request.date, field: .body("date"))
        if let categoryId = request.categoryId { try requireCategory(categoryId, field: .body("categoryId")) }
        let splits = try TransactionHandlers.validSplits(request.splits ?? [], total: amount, db: db) { try self.requireCategory($0, field: $1) }
        if request.categoryId != nil && !splits.isEmpty {
            throw LedgerError.invalid("give a category or splits, not both: each split part has its own category", field: .body("splits"))
        }
        let notes = try InputRules.optionalText(request.notes, field: .body("notes"))
        let attachment = try InputRules.optionalText(request.attachmentPath, field: .body("attachmentPath"), limit: 4_096)
        let conversion = Result { () throws -> PlannedConversion in
            let converted = try kept.map { try TransactionConversion.restored($0, amount: amount, wallet: wallet, db: db, cache: rates) }
                ?? TransactionConversion.make(db, amount: amount, wallet: wallet, overrideRate: request.rate, date: date, now: now, cache: rates)
            return PlannedConversion(converted, rates)
        }
        // Kept amounts never convert; else an override's snapshot carries the time of the write,
        // and today's rates are those in force at that moment.
        let readsClock = kept == nil && (request.rate != nil || rates.endOfDay(date.description, now: now) == nil)
        return PlannedTransaction(wallet: wallet, currency: currency, amount: amount, day: date.description, splits: splits,
                                  notes: notes, attachment: attachment, conversion: conversion, readsClock: readsClock)
    }

    /// Checks a new transfer in `insertTransfer`'s order and converts both legs; as for a
    /// transaction, the conversions' failure is kept for after the tags.
    func plan(_ request: TransferCreateRequest, kept: KeptAmounts?, now: Date) throws -> PlannedTransfer {
        guard request.fromWalletId != request.toWalletId else {
            throw LedgerError.invalid("a transfer needs two different wallets", field: .body("toWalletId"))
        }
        let source = try activeWallet(request.fromWalletId, field: .body("fromWalletId"))
        let destination = try activeWallet(request.toWalletId, field: .body("toWalletId"))
        let sourceCurrency = try InputRules.currency(source.currency, field: .body("fromWalletId"))
        let destinationCurrency = try InputRules.currency(destination.currency, field: .body("toWalletId"))
        let outgoing = try InputRules.positiveAmount(request.amount, currency: sourceCurrency, field: .body("amount"))
        let incoming: Money
        if let toAmount = request.toAmount {
            incoming = try InputRules.positiveAmount(toAmount, currency: destinationCurrency, field: .body("toAmount"))
            if sourceCurrency == destinationCurrency && incoming != outgoing {
                throw LedgerError.invalid("both wallets are in \(sourceCurrency.code): body.toAmount must equal body.amount (record a fee as its own expense)", field: .body("toAmount"))
            }
        } else {
            guard sourceCurrency == destinationCurrency else {
                throw LedgerError.invalid("the wallets are in \(sourceCurrency.code) and \(destinationCurrency.code): give body.toAmount, what arrives in \(destination.name)", field: .body("toAmount"))
            }
            incoming = outgoing
        }
        let date = try InputRules.date(request.date, field: .body("date"))
        let notes = try InputRules.optionalText(request.notes, field: .body("notes"))
        let legs = [(source, outgoing), (destination, incoming)]
        let conversions = Result { () throws -> [PlannedConversion] in
            try convertedLegs(legs, toAmountGiven: request.toAmount != nil, date: date, kept: kept, now: now).map { PlannedConversion($0, rates) }
        }
        let readsClock = kept == nil && rates.endOfDay(date.description, now: now) == nil
        return PlannedTransfer(source: source, destination: destination, outgoing: outgoing, incoming: incoming, day: date.description, notes: notes,
                               conversions: conversions, readsClock: readsClock)
    }

    /// Both legs carry the same value, so they get the same base amount: the base-currency leg's
    /// own amount when one is in the base currency (the transfer's real rate), else both
    /// converted; when either cannot be converted, neither gets one (totals stay balanced).
    private func convertedLegs(_ legs: [(WalletRecord, Money)], toAmountGiven: Bool, date: LedgerDate, kept: KeptAmounts?, now: Date) throws -> [TransactionConversion] {
        let base = try rates.baseCurrency(db)
        if let kept {
            // Restoring an export: each leg gets the base amount it had.
            return [
                TransactionConversion(walletMoney: legs[0].1, conversion: nil,
                                      baseMinorUnits: try TransactionConversion.keptBase(kept.baseAmount, db: db, field: .root("kept").member("baseAmount"), cache: rates),
                                      baseConversion: kept.baseConversion),
                TransactionConversion(walletMoney: legs[1].1, conversion: nil,
                                      baseMinorUnits: try TransactionConversion.keptBase(kept.incomingBaseAmount ?? kept.baseAmount, db: db, field: .root("kept").member("incomingBaseAmount"), cache: rates),
                                      baseConversion: kept.incomingBaseConversion),
            ]
        }
        let conversions = try zip(legs, [FieldPath.body("amount"), toAmountGiven ? .body("toAmount") : .body("amount")]).map { leg, field in
            try TransactionConversion.make(db, amount: leg.1, wallet: leg.0, overrideRate: nil, date: date, now: now, cache: rates, amountField: field)
        }
        if let inBase = legs.firstIndex(where: { $0.1.currency.code == base }) {
            return conversions.indices.map { index in
                conversions[index].withBase(minorUnits: legs[inBase].1.minorUnits, snapshot: index == inBase ? nil : conversions[index].baseConversion)
            }
        }
        if conversions.contains(where: { $0.baseMinorUnits == nil }) {
            return conversions.map { $0.withBase(minorUnits: nil, snapshot: nil) }
        }
        return conversions
    }

    // MARK: Remembered reads

    private func activeWallet(_ id: Int64, field: FieldPath) throws -> WalletRecord {
        if let known = wallets[id] { return known }
        let wallet = try WalletRow.active(db, id: id, field: field).record
        wallets[id] = wallet
        return wallet
    }

    private func requireCategory(_ id: Int64, field: FieldPath) throws {
        guard !knownCategories.contains(id) else { return }
        try CategoryRow.requireExists(db, id: id, field: field)
        knownCategories.insert(id)
    }
}

/// A transaction checked and converted, ready for `TransactionWriter` to record. A class: an
/// import batch's plans are handed from thread to thread and read in place, not copied.
final class PlannedTransaction: Sendable {
    let wallet: WalletRecord
    let currency: Currency
    let amount: Money
    let day: String
    let splits: [(Money, SplitPart)]
    let notes: String?
    let attachment: String?
    /// Thrown by the writer after it has checked the tags, where `insert` always checked the
    /// conversion: an item with a bad tag and no rate is refused for its tag either way.
    let conversion: Result<PlannedConversion, any Error>
    /// The plan read the clock (today's rates, an override's time): only valid at that moment.
    let readsClock: Bool

    init(wallet: WalletRecord, currency: Currency, amount: Money, day: String, splits: [(Money, SplitPart)], notes: String?, attachment: String?,
         conversion: Result<PlannedConversion, any Error>, readsClock: Bool) {
        self.wallet = wallet
        self.currency = currency
        self.amount = amount
        self.day = day
        self.splits = splits
        self.notes = notes
        self.attachment = attachment
        self.conversion = conversion
        self.readsClock = readsClock
    }
}

/// A transfer checked and both legs converted ([outgoing, incoming]).
final class PlannedTransfer: Sendable {
    let source: WalletRecord
    let destination: WalletRecord
    let outgoing: Money
    let incoming: Money
    let day: String
    let notes: String?
    let conversions: Result<[PlannedConversion], any Error>
    let readsClock: Bool

    init(source: WalletRecord, destination: WalletRecord, outgoing: Money, incoming: Money, day: String, notes: String?,
         conversions: Result<[PlannedConversion], any Error>, readsClock: Bool) {
        self.source = source
        self.destination = destination
        self.outgoing = outgoing
        self.incoming = incoming
        self.day = day
        self.notes = notes
        self.conversions = conversions
        self.readsClock = readsClock
    }
}

/// A conversion with its snapshots as stored.
struct PlannedConversion: Sendable {
    let converted: TransactionConversion
    let conversionJSON: String?
    let baseConversionJSON: String?

    init(_ converted: TransactionConversion, _ rates: ConversionCache) {
        self.converted = converted
        conversionJSON = rates.json(converted.conversion)
        baseConversionJSON = rates.json(converted.baseConversion)
    }
}
