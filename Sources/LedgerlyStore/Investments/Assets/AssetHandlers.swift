import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// `invest.asset.create|list|update`.
enum AssetHandlers {
    static func create(_ request: AssetCreateRequest, _ context: inout WriteContext) throws -> AssetRecord {
        let db = context.db
        let symbol = try symbolText(request.symbol, field: .body("symbol"))
        try ensureSymbolFree(db, symbol: symbol, except: nil)
        var row = AssetRow(
            id: nil, symbol: symbol, assetType: request.assetType.rawValue, name: try InputRules.optionalText(request.name, field: .body("name"), limit: 200),
            exchange: try InputRules.optionalText(request.exchange, field: .body("exchange"), limit: 50),
            quoteCurrency: try InputRules.currency(request.quoteCurrency, field: .body("quoteCurrency")).code,
            provider: (request.provider ?? (request.assetType == .crypto ? .coingecko : .alphavantage)).rawValue,
            providerId: try InputRules.optionalText(request.providerId, field: .body("providerId"), limit: 100),
            allocationGroup: try InputRules.optionalText(request.allocationGroup, field: .body("allocationGroup"), limit: AllocationHandlers.maximumKeyLength),
            watched: request.watched ?? false, createdAt: context.now, updatedAt: context.now)
        try row.insert(db)
        try context.record(.assetCreated, id: String(row.id ?? 0), data: row.record)
        return row.record
    }

    static func list(_ request: AssetListRequest, _ db: Database) throws -> AssetListReply {
        AssetListReply(assets: try AssetRow.bySymbol(db).map(\.record))
    }

    static func update(_ request: AssetUpdateRequest, _ context: inout WriteContext) throws -> AssetRecord {
        let db = context.db
        var row = try AssetRow.find(db, id: request.id, field: .body("id"))
        if let symbol = request.symbol {
            row.symbol = try symbolText(symbol, field: .body("symbol"))
            try ensureSymbolFree(db, symbol: row.symbol, except: row.id)
        }
        if let type = request.assetType { row.assetType = type.rawValue }
        if let code = request.quoteCurrency {
            let currency = try InputRules.currency(code, field: .body("quoteCurrency")).code
            if currency != row.quoteCurrency, try TradeRow.exists(db, assetId: request.id) {
                throw LedgerError.conflict("\(row.symbol) has trades in \(row.quoteCurrency): its quote currency cannot change", field: .body("quoteCurrency"))
            }
            row.quoteCurrency = currency
        }
        if let provider = request.provider { row.provider = provider.rawValue }
        if let text = request.name { row.name = text.isEmpty ? nil : try InputRules.optionalText(text, field: .body("name"), limit: 200) }
        if let text = request.exchange { row.exchange = text.isEmpty ? nil : try InputRules.optionalText(text, field: .body("exchange"), limit: 50) }
        if let text = request.providerId { row.providerId = text.isEmpty ? nil : try InputRules.optionalText(text, field: .body("providerId"), limit: 100) }
        if let text = request.allocationGroup { row.allocationGroup = text.isEmpty ? nil : try InputRules.optionalText(text, field: .body("allocationGroup"), limit: AllocationHandlers.maximumKeyLength) }
        if let watched = request.watched { row.watched = watched }
        row.updatedAt = context.now
        try row.update(db)
        try context.record(.assetUpdated, id: String(request.id), data: row.record)
        return row.record
    }

    /// A symbol is kept exactly as typed; it may not be empty or hold spaces, control characters or
    /// format characters (it is sent to providers and used in files, and an invisible U+200B or
    /// U+FEFF would make `ACME\u{200B}` a second asset that looks exactly like `ACME`, D473).
    /// The whole text is checked, not a trimmed copy: `"A\n"` is refused rather than stored as `"A"`.
    static func symbolText(_ raw: String, field: @autoclosure () -> FieldPath) throws -> String {
        let refused: (Unicode.Scalar) -> Bool = { scalar in
            scalar.properties.isWhitespace || [.control, .format].contains(scalar.properties.generalCategory)
        }
        guard !raw.isEmpty, raw.count <= 32, !raw.unicodeScalars.contains(where: refused) else {
            throw LedgerError.invalid("\(field()) \(InputEcho.quoted(raw)) is not a symbol: 1 to 32 characters, no spaces, control or format (invisible) characters", field: field())
        }
        return raw
    }

    private static func ensureSymbolFree(_ db: Database, symbol: String, except id: Int64?) throws {
        if let taken = try AssetRow.id(symbol: symbol, db), taken != id {
            throw LedgerError.conflict("an asset with the symbol '\(symbol)' already exists (symbols are unique, ignoring case)", field: .body("symbol"))
        }
    }
}
