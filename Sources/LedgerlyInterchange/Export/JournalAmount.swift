import LedgerlyCore

/// An exact amount of one commodity as the journal writes it: integer minor units plus the
/// exponent they were parsed with, never a Double, so what hledger sums is what Ledgerly stored.
struct JournalAmount: Hashable, Sendable {
    let minorUnits: Int64
    let exponent: Int
    /// The upper-cased code ("EUR", "JPY").
    let commodity: String

    init(minorUnits: Int64, exponent: Int, commodity: String) {
        self.minorUnits = minorUnits
        self.exponent = exponent
        self.commodity = commodity
    }

    /// Parses a record's decimal string with LedgerlyCore's own rule (`Money(parsing:)`), so an
    /// amount the store formatted comes back as exactly its stored minor units.
    init(parsing text: String, commodity: String) throws(MoneyError) {
        let money = try Money(parsing: text, currency: Self.currency(for: commodity))
        // Int64.min has no positive counterpart; refusing it here lets every sign flip be plain.
        guard money.minorUnits != Int64.min else { throw MoneyError.outOfRange(text) }
        // Upper-cased as `Currency` does, so "eur" and "EUR" are one commodity for hledger too.
        self.init(minorUnits: money.minorUnits, exponent: money.currency.exponent, commodity: money.currency.code == commodity ? commodity : commodity.uppercased())
    }

    /// The same for a code already known as `currency` (upper-case, as `Currency` keeps it), without
    /// looking the code up again: the journal writer parses three or four amounts per entry.
    init(parsing text: String, currency: Currency) throws(MoneyError) {
        let money = try Money(parsing: text, currency: currency)
        guard money.minorUnits != Int64.min else { throw MoneyError.outOfRange(text) }
        self.init(minorUnits: money.minorUnits, exponent: currency.exponent, commodity: currency.code)
    }

    /// `Currency` accepts letters only, yet a journal may still meet a code such as "1INCH". Such a
    /// code gets the custom exponent (what `CurrencyCatalog` gives every code it does not know),
    /// so it is parsed as a custom currency with the very same rule.
    private static func currency(for code: String) throws(MoneyError) -> Currency {
        if let currency = try? Currency(code: code) { return currency }
        guard !code.isEmpty, let standIn = customStandIn else { throw MoneyError.invalidCurrencyCode(code) }
        return standIn
    }

    /// A code no table lists, hence with `CurrencyCatalog.customExponent`.
    private static let customStandIn: Currency? = try? Currency(code: "XLEDGERLYCUSTOM")

    func with(minorUnits: Int64) -> JournalAmount {
        JournalAmount(minorUnits: minorUnits, exponent: exponent, commodity: commodity)
    }

    /// This amount with the given sign (+1 or -1) applied.
    func signed(_ sign: Int64) -> JournalAmount { with(minorUnits: sign * minorUnits) }

    /// `-84.30 EUR`: the number with exactly the exponent's decimals (hledger and ledger infer the
    /// display precision from it), then the commodity.
    var journalText: String {
        "\(Money.format(minorUnits: minorUnits, exponent: exponent)) \(Self.commoditySymbol(commodity))"
    }

    /// A total price is written unsigned: both tools take the sign from the posting's amount.
    var unsignedJournalText: String { with(minorUnits: minorUnits < 0 ? -minorUnits : minorUnits).journalText }

    /// A commodity symbol both tools read: bare when it is all ASCII letters, otherwise in double
    /// quotes ("1INCH"), since digits, spaces or signs would be read as part of the number.
    /// Characters that cannot appear inside the quotes are dropped.
    static func commoditySymbol(_ code: String) -> String {
        if !code.isEmpty, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) {
            return code
        }
        let kept = String(String.UnicodeScalarView(code.unicodeScalars.filter {
            $0 != "\"" && $0 != ";" && !$0.properties.isWhitespace && $0.properties.generalCategory != .control
        }))
        return "\"\(kept.isEmpty ? "?" : kept)\""
    }
}
