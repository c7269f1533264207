import FoundationEssentials

/// How `rates.json` and `alerts.json` are read: JSON5, so they can carry comments (`//`, `/* */`),
/// trailing commas and unquoted keys (D327).
///
/// Why JSON5 and not TOML: every JSON file people already have stays valid (JSON5 is a superset),
/// the protocol and docs keep one notation, and Foundation reads it without another package.
public enum ConfigurationJSON {
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        return decoder
    }
}
