import FoundationEssentials
import LedgerlyFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The pairing codes `ledgerly web pair` issued and nobody used yet (D592): one file per code in
/// the state folder's `web-pairing/` (0600 in a 0700 folder), named by the code and holding the
/// Unix time it expires, handed from the CLI to ledgerly-web as sign-in tickets are (D511).
///
/// A code is consumed by `unlink`: of two requests with one code only one unlinks the file, so a
/// code pairs one device. Times are the real clock's on both sides (D596).
public struct PairingCodeFolder: Sendable {
    public let folder: URL

    public init(home: LedgerlyHome) {
        folder = WebAccessPaths(home: home).pairingCodes
    }

    public struct Issued: Sendable, Equatable {
        public let code: String
        public let expiresAt: Int64
    }

    /// A new code, written where ledgerly-web looks for it.
    public func issue(now: Int64) throws -> Issued {
        let code = PairingCode.make()
        let expires = now + PairingCode.lifetimeSeconds
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
        let temporary = "\(folder.path)/.new-\(code)"
        let file = try PosixFile.creatingNew(temporary)
        do {
            try file.write(Data("\(expires)\n".utf8))
            try file.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, "\(folder.path)/\(code)") == 0 else {
            unlink(temporary)
            throw PairingCodeError(path: folder.path)
        }
        return Issued(code: code, expiresAt: expires)
    }

    /// Whether `typed` is a code issued, unused and unexpired; it is used up either way. One
    /// answer for every refusal (unknown, used, expired, malformed), so a guess learns nothing.
    public func consume(_ typed: String, now: Int64) -> Bool {
        guard let code = PairingCode.normalized(typed) else { return false }
        let path = "\(folder.path)/\(code)"
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        guard unlink(path) == 0 else { return false }
        let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        guard let expires = Int64(text) else { return false }
        return now <= expires
    }

    /// Removes codes that expired unused.
    public func sweep(now: Int64) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where PairingCode.normalized(name) == name {
            let path = "\(folder.path)/\(name)"
            let expires = FileManager.default.contents(atPath: path).flatMap { Int64(String(decoding: $0, as: UTF8.self).filter { !$0.isWhitespace }) }
            if (expires ?? 0) < now { unlink(path) }
        }
    }
}

/// The pairing folder could not be written.
public struct PairingCodeError: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "cannot write a pairing code in \(path)" }
}
