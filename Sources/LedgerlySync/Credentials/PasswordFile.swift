import Foundation
import LedgerlyRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq's password file, read the way libpq reads it, so a hub password can live where
/// PostgreSQL users already keep theirs instead of in a URL (D431).
///
/// Which file: the URL's `passfile=`, else `$PGPASSFILE`, else `~/.pgpass`. Each line is
/// `hostname:port:database:username:password`; `*` in the first four fields matches anything, `\:`
/// and `\\` stand for a colon and a backslash, lines starting with `#` are comments, and the first
/// matching line wins. A unix-socket connection matches the host name `localhost` or the socket's
/// folder, as in libpq.
///
/// Where libpq only warns and ignores a file that group or others may read, Ledgerly refuses with
/// an error naming the file and the `chmod 600` to run: the password stays unused either way, and
/// a refusal is not lost in a service log. A `passfile=` that does not exist is refused too (it was
/// named on purpose); a missing `$PGPASSFILE` or `~/.pgpass` just means no password.
public enum PasswordFile {
    /// The password for `address` (whose URL has none), or `nil` when no file holds a matching line.
    public static func password(for address: HubAddress, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PasswordFileError) -> String? {
        let path: String
        let named: Bool
        if let explicit = address.passwordFilePath {
            (path, named) = (explicit, true)
        } else if let variable = environment["PGPASSFILE"], !variable.isEmpty {
            (path, named) = (variable, false)
        } else if let home = environment["HOME"], !home.isEmpty {
            (path, named) = (home + "/.pgpass", false)
        } else {
            return nil
        }
        // Read as every secret file is (`SecureFile`): the checks judge the file that was opened,
        // not a name that could be swapped between a check and the read. Links are followed, as
        // libpq follows them.
        let data: Data
        do {
            data = try SecureFile.readChecked(path, followLinks: true) { info throws(CredentialsError) in
                guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "not a regular file") }
                guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: UInt16(info.st_mode & 0o777)) }
            }
        } catch .missing where !named {
            return nil
        } catch .tooOpen(_, let mode) {
            throw .accessibleToOthers(path: path, mode: mode)
        } catch .unreadable(_, let reason) {
            throw .unreadable(path: path, reason: reason)
        } catch .missing {
            throw .unreadable(path: path, reason: String(cString: strerror(ENOENT)))
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .unreadable(path: path, reason: "not UTF-8 text") }
        return lookup(text, address: address)
    }

    /// The first line of `text` that matches `address`'s host, port, database and user.
    static func lookup(_ text: String, address: HubAddress) -> String? {
        let hosts: [String]
        let port: Int
        switch address.endpoint {
        case .tcp(let host, let tcpPort):
            (hosts, port) = ([host], tcpPort)
        case .unixSocket(let path):
            // `<folder>/.s.PGSQL.<port>`
            let folder = (path as NSString).deletingLastPathComponent
            port = Int(path.split(separator: ".").last ?? "") ?? 5432
            hosts = ["localhost", folder]
        }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            func matches(_ field: String, _ values: [String]) -> Bool { field == "*" || values.contains(field) }
            if matches(fields[0], hosts), matches(fields[1], ["\(port)"]), matches(fields[2], [address.database]), matches(fields[3], [address.user]) {
                return fields[4]
            }
        }
        return nil
    }

    /// Splits a line at unescaped colons, undoing `\:` and `\\`.
    static func split(_ line: Substring) -> [String] {
        var fields: [String] = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":", fields.count < 5 {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}

/// Why a password file was not used; each message names the file and never a password.
public enum PasswordFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case accessibleToOthers(path: String, mode: UInt16)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .accessibleToOthers(let path, let mode):
            "the password file \(path) has mode \(String(mode, radix: 8)), so other users may read or change it: run chmod 600 \(path) (libpq's rule, enforced)"
        case .unreadable(let path, let reason):
            "the password file \(path) cannot be read: \(reason)"
        }
    }
}
