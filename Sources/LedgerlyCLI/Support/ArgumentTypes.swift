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
