import FoundationEssentials
import LedgerlyCore

/// The currency of the user's locale (`LC_ALL`, then `LC_MONETARY`, then `LANG`), or USD.
enum LocaleCurrency {
    static func guess(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for variable in ["LC_ALL", "LC_MONETARY", "LANG"] {
            guard let value = environment[variable], !value.isEmpty, value != "C", value != "POSIX" else { continue }
            let identifier = value.split(separator: ".").first.map(String.init)?.split(separator: "@").first.map(String.init) ?? value
            if let code = RegionCurrency.currency(forLocale: identifier), CurrencyCatalog.entry(for: code) != nil { return code }
        }
        return "USD"
    }
}
