/// A pairing code (D592): 8 symbols of 30 without look-alikes (no 0/O, 1/I/L, U), about 39 bits,
/// shown as `ABCD-EFGH`. Typed once on a phone's pairing page; accepted with or without
/// the dash, spaces and in either case. With the attempts ledgerly-web allows (D593) and ten
/// minutes of life, guessing one is out of reach; it is short so a person can type it.
public enum PairingCode {
    public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let length = 8
    /// How long a code works after `ledgerly web pair` printed it.
    public static let lifetimeSeconds: Int64 = 600

    /// A fresh code from the system's cryptographic generator (getrandom(2)), undisplayed form.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// What a person typed, as the code it names: dashes and spaces dropped, letters upper-cased;
    /// nil unless exactly `length` symbols of the alphabet remain (so it can name a file).
    public static func normalized(_ typed: String) -> String? {
        let symbols = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard symbols.count == length, symbols.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return symbols
    }

    /// `ABCD-EFGH`: two groups a person reads and types more easily than eight in a row.
    public static func display(_ code: String) -> String {
        guard code.count == length else { return code }
        return "\(code.prefix(length / 2))-\(code.suffix(length / 2))"
    }
}
