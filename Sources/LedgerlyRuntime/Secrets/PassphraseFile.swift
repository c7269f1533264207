import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a passphrase for `--passphrase-file F`, so scripts can join a hub without a prompt.
///
/// The passphrase is the file's first line with its line ending (`\n` or `\r\n`) removed; spaces
/// are kept, since they may be part of it. An empty first line is refused rather than taken as an
/// empty passphrase.
///
/// A file that every user may read (the "others" read bit) is refused, not warned about: a
/// warning scrolls by in a script's log while the passphrase stays exposed. A group-readable file
/// is accepted, because secret stores commonly hand secrets to a service through a group
/// (`root:ledgerly 0640`), and files owned by another user are accepted for the same reason. Pipes
/// are accepted too, so `--passphrase-file <(pass show ledgerly)` works.
public enum PassphraseFile {
    public static func read(path: String) throws(CredentialsError) -> String {
        let data = try SecureFile.readChecked(path, followLinks: true, limit: 64 * 1024) { info throws(CredentialsError) in
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG || type == S_IFIFO else { throw .notARegularFile(path: path) }
            if type == S_IFREG, info.st_mode & 0o004 != 0 {
                throw .passphraseFileReadableByOthers(path: path, mode: UInt16(info.st_mode & 0o7777))
            }
        }
        // Bytes, not characters: Swift takes "\r\n" as one character.
        var line = data.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { throw .emptyPassphrase(path: path) }
        return String(decoding: line, as: UTF8.self)
    }
}
