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
