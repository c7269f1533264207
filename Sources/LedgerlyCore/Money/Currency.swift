/// A currency code with the exponent that decides its minor unit (2 for EUR, 0 for JPY).
///
/// ISO 4217 codes take their exponent from `CurrencyCatalog`, well-known crypto-assets from its
/// crypto table; users may also keep custom currencies (letters only, up to 20 characters),
/// which use `CurrencyCatalog.customExponent`.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    public let code: String
    public let exponent: Int

    public static let maximumCodeLength = 20

    /// Validates and normalizes (upper-cases) a code.
    public init(code raw: String) throws(MoneyError) {
        // Codes come upper-cased almost always (every amount read names one): then there is
        // nothing to upper-case, which with its Unicode rules costs more than the rest.
        // Such a code is valid as it is (1 to `maximumCodeLength` letters A–Z); the checks below
        // are for the rest.
        var bytes = raw
        let isUpperASCII = bytes.withUTF8 { !$0.isEmpty && $0.count <= Self.maximumCodeLength && $0.allSatisfy { $0 >= 65 && $0 <= 90 } }
        let code = isUpperASCII ? raw : raw.uppercased()
        guard isUpperASCII || (!code.isEmpty && code.count <= Self.maximumCodeLength
                               && code.unicodeScalars.allSatisfy({ $0.value >= 65 && $0.value <= 90 }))
        else { throw MoneyError.invalidCurrencyCode(raw) }
        self.code = code
        self.exponent = CurrencyCatalog.exponent(for: code)
    }

    public var isISO: Bool { CurrencyCatalog.entry(for: code) != nil }
    public var name: String { CurrencyCatalog.entry(for: code)?.name ?? "Custom currency" }
    public var description: String { code }
}
