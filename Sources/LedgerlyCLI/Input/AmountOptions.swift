import ArgumentParser
import FoundationEssentials

/// The command-line side of `AmountText`: each amount option's text read when the arguments are
/// parsed. What could be misread (digits grouped oddly, the other decimal mark, a symbol several
/// currencies share) is refused naming the option; what is no amount at all goes to the store as
/// typed, which refuses it as it always has (exit 1, naming the option).
enum AmountOptions {
    static var current: AmountText { AmountText(decimalComma: AmountText.decimalComma(environment: ProcessInfo.processInfo.environment)) }

    /// An amount in the currency the command already knows (the wallet's, the goal's): a
    /// currency mark is refused rather than dropped, since nothing here could check it.
    static func plain(_ text: String) throws -> String {
        try alone(read(text, as: "an amount", loneGroupIsAmbiguous: false), typed: text, "the amount alone, in the currency it is counted in")
    }

    /// A rate, price, quantity or percentage: read as `plain` reads an amount, except that one
    /// group separator followed by exactly three digits (`1.085`, `1,085`) is refused as
    /// ambiguous, since three decimals are common there (D448).
    static func decimal(_ text: String) throws -> String {
        try alone(read(text, as: "a value", loneGroupIsAmbiguous: true), typed: text, "the number alone")
    }

    /// `--split AMOUNT:CATEGORY[:MEMO]`: the amount read as `plain` reads one, the category and
    /// memo kept as typed. A value without a colon is left for the command to refuse, naming the split.
    static func split(_ text: String) throws -> String {
        guard let colon = text.firstIndex(of: ":") else { return text }
        return try plain(String(text[..<colon])) + text[colon...]
    }

    /// An amount that may name its currency (`tx add --amount €12.50`).
    static func marked(_ text: String) throws -> MarkedAmount {
        try read(text, as: "an amount", loneGroupIsAmbiguous: false)
    }

    /// `text` read by `AmountText`; what is no amount at all is passed on as typed, for the
    /// store to refuse naming the option.
    private static func read(_ text: String, as noun: String, loneGroupIsAmbiguous: Bool) throws -> MarkedAmount {
        guard !text.hasPrefix("--") else { throw ValidationError("\(noun) is missing before \(text)") }
        do {
            let read = try current.read(text, loneGroupIsAmbiguous: loneGroupIsAmbiguous)
            return MarkedAmount(amount: read.amount, currency: read.currency)
        } catch .unreadable {
            return MarkedAmount(amount: text, currency: nil)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The number of an option that takes no currency mark: a mark is refused, not dropped.
    private static func alone(_ read: MarkedAmount, typed text: String, _ what: String) throws -> String {
        if let currency = read.currency { throw ValidationError("'\(text)': this option takes \(what); leave out \(currency)") }
        return read.amount
    }
}
