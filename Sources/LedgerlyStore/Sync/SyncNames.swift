import GRDB
import LedgerlyCore
import LedgerlyProtocol

/// Names two devices gave while apart, and ids a joining device can keep.
///
/// The rule (docs/sync.md): when a wallet (or a category at one level, a recurring template, a
/// goal, a manual asset, a liability, a rate profile, an investment account) arrives with a name a different one here
/// already has, the one with the greater global id is renamed `Name (2)` (the next free number),
/// on every device alike, since each compares the same two ids. Both are kept, nothing is merged
/// behind the user's back, and `sync status` says what was renamed.
enum SyncNames {
    enum Scope {
        case wallets
        case categories(parentId: Int64?)
        case recurring
        case goals
        case manualAssets
        case liabilities
        case rateProfiles
        case investAccounts

        var table: String {
            switch self {
            case .wallets: "wallets"
            case .categories: "categories"
            case .recurring: "recurring"
            case .goals: "goals"
            case .manualAssets: "manual_assets"
            case .liabilities: "liabilities"
            case .rateProfiles: "rate_profiles"
            case .investAccounts: "invest_accounts"
            }
        }
    }

    /// The name the arriving thing gets: `name`, or a free one when it is the one to rename.
    static func settle(_ name: String, of thing: (kind: any SyncedThing.Type, gid: String, localId: Int64?), among scope: Scope,
                       identities: SyncIdentities, _ context: inout WriteContext) throws -> String {
        let db = context.db
        guard let other = try holder(of: name, in: scope, db), other != thing.localId else { return name }
        let otherGid = try identities.gid(thing.kind, localId: other)
        if thing.gid > otherGid {
            let renamed = try freeName(name, in: scope, db)
            identities.notices.append("two devices made a \(thing.kind.entity) named '\(name)' while apart: the one that arrived is now '\(renamed)'")
            return renamed
        }
        // The one here is renamed from its own name (the two may differ in case).
        let own = try db.cachedValue(String.self, sql: "SELECT name FROM \(scope.table) WHERE id = ?", arguments: [other]) ?? name
        let renamed = try freeName(own, in: scope, db)
        try db.execute(cached: "UPDATE \(scope.table) SET name = ? WHERE id = ?", arguments: [renamed, other])
        switch scope {
        case .wallets:
            try context.record(.walletUpdated, id: String(other), data: try WalletRow.find(db, id: other).record)
        case .categories:
            try context.record(.categoryUpdated, id: String(other), data: try CategoryRow.find(db, id: other, field: .body("messages")))
        case .recurring:
            try context.record(.recurringUpdated, id: String(other), data: try RecurringHandlers.fetch(db, id: other, field: .body("messages")))
        case .goals:
            try context.record(.goalUpdated, id: String(other), data: try GoalHandlers.fetch(db, id: other, field: .body("messages"), today: Timestamp.today(at: context.date)))
        case .manualAssets:
            try context.record(.manualAssetUpdated, id: String(other), data: try ManualAssetRow.find(db, id: other, field: .body("messages")).record(db, withValuations: true))
        case .liabilities:
            try context.record(.liabilityUpdated, id: String(other), data: try LiabilityRow.find(db, id: other, field: .body("messages")).record(db, withHistory: true))
        case .rateProfiles:
            try context.record(.rateProfileUpdated, id: String(other), data: try RateHandlers.profile(db, id: other, field: .body("messages")))
        case .investAccounts:
            try context.record(.investAccountUpdated, id: String(other), data: try InvestAccountRow.find(db, id: other, field: .body("messages")).record)
        }
        identities.notices.append("two devices made a \(thing.kind.entity) named '\(own)' while apart: the one this device had is now '\(renamed)'")
        return name
    }

    /// `text` as the tables' NOCASE compares it: A–Z folded to a–z (`upper`: a–z to A–Z), every
    /// other letter kept, so "É" and "é" stay two, as they are two names to SQLite.
    static func foldedAZ(_ text: String, upper: Bool = false) -> String {
        let (from, shift): (ClosedRange<Unicode.Scalar>, Int32) = upper ? ("a"..."z", -32) : ("A"..."Z", 32)
        return String(String.UnicodeScalarView(text.unicodeScalars.map { from.contains($0) ? Unicode.Scalar(UInt32(Int32($0.value) + shift))! : $0 }))
    }

    /// `hint` when no row of `table` has that id (a joining device then keeps the ids of the
    /// device it joins); nil lets SQLite choose.
    static func freeId(_ hint: Int64?, table: String, _ db: Database) throws -> Int64? {
        guard let hint, hint > 0 else { return nil }
        let taken = try db.cachedValue(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)", arguments: [hint]) ?? true
        return taken ? nil : hint
    }

    private static func holder(of name: String, in scope: Scope, _ db: Database) throws -> Int64? {
        switch scope {
        case .wallets, .recurring, .goals, .manualAssets, .liabilities, .rateProfiles, .investAccounts:
            try db.cachedValue(Int64.self, sql: "SELECT id FROM \(scope.table) WHERE name = ? COLLATE NOCASE", arguments: [name])
        case .categories(let parentId):
            try db.cachedValue(Int64.self, sql: "SELECT id FROM categories WHERE ifnull(parent_id, 0) = ? AND name = ? COLLATE NOCASE", arguments: [parentId ?? 0, name])
        }
    }

    private static func freeName(_ name: String, in scope: Scope, _ db: Database) throws -> String {
        var number = 2
        while try holder(of: "\(name) (\(number))", in: scope, db) != nil { number += 1 }
        return "\(name) (\(number))"
    }
}
