import ArgumentParser
import LedgerlyCore
import LedgerlyProtocol

extension WalletType: ExpressibleByArgument {}
extension ExchangeMode: ExpressibleByArgument {}
extension TransactionKind: ExpressibleByArgument {}
extension CategoryKind: ExpressibleByArgument {}

/// An on/off command-line value, for settings that are switches.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
    var isOn: Bool { self == .on }
}
extension RecurrenceFrequency: ExpressibleByArgument {}
extension RecurrenceMode: ExpressibleByArgument {}

/// A rate typed on the command line, checked by the core's one rule (`ExchangeRate`: a plain
/// positive decimal within `ExchangeRate.minimum…maximum`, at most 18 significant digits) before
/// anything is sent, so "-1" is refused as a rate that must be positive, not as a stray option.
enum RateArgument {
    static func check(_ text: String, name: String) throws {
        do { _ = try ExchangeRate(parsing: text) } catch { throw ValidationError("\(name): \(error.description)") }
    }
}
extension InvestAccountType: ExpressibleByArgument {}
extension CostBasisMethod: ExpressibleByArgument {}
extension AssetType: ExpressibleByArgument {}
extension PriceProvider: ExpressibleByArgument {}

/// A lot named on the command line, `ID:QTY` (`--lot 3:2.5`): which lot a sale or transfer takes
/// and how many of its units. The quantity is read as every amount is (`AmountOptions`: `1,000.5`,
/// a decimal comma where the locale writes one; digits grouped oddly are refused); the store
/// checks the rest.
struct LotArgument: ExpressibleByArgument {
    let selection: LotSelection

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = Int64(parts[0]), !parts[1].isEmpty, let quantity = try? AmountOptions.decimal(parts[1]) else { return nil }
        selection = LotSelection(lotId: id, quantity: quantity)
    }

    static var defaultValueDescription: String { "ID:QTY" }
}
extension ManualAssetType: ExpressibleByArgument {}

/// A liability's type as typed: `credit-card` like the other options' kebab case, or the wire's
/// `creditCard`, so a value copied from `--json` output works too.
struct LiabilityTypeArgument: ExpressibleByArgument {
    let type: LiabilityType

    init?(argument: String) {
        let folded = argument.lowercased().filter { $0 != "-" }
        guard let match = LiabilityType.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
        type = match
    }

    /// What the CLI prints for a type: the kebab-case spelling it takes.
    static func text(_ type: LiabilityType) -> String { type == .creditCard ? "credit-card" : type.rawValue }

    static var allValueStrings: [String] { LiabilityType.allCases.map(text) }
}

/// A choice backed by a `String` is spelled on the command line as its raw value. The library's
/// defaults reach the same text through `"\(value)"`, whose dynamic casts make the runtime scan
/// the binary's conformance records the first time each type is printed (D275, D387), in every
/// command's parse, help or not; the raw value needs none.
extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    public var defaultValueDescription: String { rawValue }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }

    public static var allValueDescriptions: [String: String] {
        allCases.reduce(into: [:]) { descriptions, value in
            if value.rawValue != value.defaultValueDescription { descriptions[value.rawValue] = value.defaultValueDescription }
        }
    }

    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
