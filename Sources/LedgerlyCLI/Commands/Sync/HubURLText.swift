import FoundationEssentials

/// The little the CLI needs to know of a hub URL without the sync library (which ledgerly-sync
/// parses fully): whether a password is in it, how to put one in, and what protects the
/// connection, for `sync enable` and `sync status`. The same split as `HubAddress`'s: the user
/// information ends at the last `@`, the password starts after its first `:`.
enum HubURLText {
    /// Whether `url` carries a password (`postgres://user:password@…`).
    static func hasPassword(_ url: String) -> Bool {
        guard let userInfo = userInfo(url) else { return false }
        return userInfo.contains(":")
    }

    /// `url` with `password` (percent-encoded) after the user name. Only for a URL without one.
    static func inserting(password: String, into url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@") else { return url }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var encoded = ""
        for byte in password.utf8 {
            if unreserved.contains(byte) {
                encoded.append(Character(UnicodeScalar(byte)))
            } else {
                encoded += "%" + hex(byte)
            }
        }
        let head = String(url[..<at])
        let tail = String(url[at...])
        return head + ":" + encoded + tail
    }

    /// `url` with `name=value` added to its query (the value percent-encoded where it must be).
    static func adding(parameter name: String, value: String, to url: String) -> String {
        let encoded = value.replacing("%", with: "%25").replacing("&", with: "%26").replacing("#", with: "%23")
        return url + (url.contains("?") ? "&" : "?") + name + "=" + encoded
    }

    /// The value of a query parameter (not percent-decoded; the names Ledgerly reads need none).
    static func parameter(_ name: String, in url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        for item in url[url.index(after: question)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == name { return String(parts[1]) }
        }
        return nil
    }

    /// What `sync status` says of the transport, from the (redacted) URL: the rules of D430.
    /// `warning` is set for plain TCP.
    static func transport(of url: String) -> (text: String, warning: String?) {
        if let folder = parameter("host", in: url) {
            return ("unix socket in \(folder) (local, no TLS needed)", nil)
        }
        if parameter("sslmode", in: url) == "disable" {
            return ("plain TCP, no TLS (sslmode=disable)",
                    "Warning: the hub connection is not encrypted: anyone on the network path can read the traffic's metadata and change it. Drop sslmode=disable to use verified TLS.")
        }
        let roots = parameter("sslrootcert", in: url).map { "the certificate in \($0)" } ?? "the system's trusted roots"
        return ("TLS, the hub's certificate and name verified against \(roots)", nil)
    }

    /// `sync status`'s lines on the connection (D433): the transport, how the hub knew this
    /// device on the last connection a round reported (`authentication`, D531: SCRAM-SHA-256, or
    /// the request that was refused; nil before any), and a warning for plain TCP.
    static func statusLines(hub: String?, authentication: String?) -> [String] {
        guard let hub else { return [] }
        let (text, warning) = transport(of: hub)
        return ["Transport: \(text)", "Authentication: \(authentication ?? "not connected yet")"]
            + (warning.map { [$0] } ?? [])
    }

    private static func userInfo(_ url: String) -> Substring? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return nil }
        return rest[..<at]
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
