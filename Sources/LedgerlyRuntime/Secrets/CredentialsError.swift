import FoundationEssentials

/// Why a credential or passphrase file was refused; each message names the file and what to do.
public enum CredentialsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Group or others have permissions on a file that must be private.
    case tooOpen(path: String, mode: UInt16)
    /// Others may read a passphrase file.
    case passphraseFileReadableByOthers(path: String, mode: UInt16)
    case ownedByAnotherUser(path: String, owner: UInt32)
    case notARegularFile(path: String)
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case malformed(path: String, reason: String)
    case emptyPassphrase(path: String)

    public var description: String {
        switch self {
        case .tooOpen(let path, let mode):
            "\(path) is open to other users (mode \(Self.octal(mode))): it holds a secret; run `chmod 600 \(path)` if it is yours"
        case .passphraseFileReadableByOthers(let path, let mode):
            "the passphrase file \(path) is readable by every user (mode \(Self.octal(mode))): run `chmod o-rwx \(path)` first"
        case .ownedByAnotherUser(let path, let owner):
            "\(path) belongs to another user (uid \(owner)): a secret file must be the reader's own"
        case .notARegularFile(let path):
            "\(path) is not a regular file"
        case .missing(let path):
            "\(path) is missing: `ledgerly sync enable` writes the sync credentials again"
        case .unreadable(let path, let reason):
            "\(path) could not be read: \(reason)"
        case .unwritable(let path, let reason):
            "\(path) could not be written: \(reason)"
        case .malformed(let path, let reason):
            "\(path) is malformed: \(reason)"
        case .emptyPassphrase(let path):
            "the passphrase file \(path) has an empty first line"
        }
    }

    public static func octal(_ mode: UInt16) -> String { "0" + String(mode & 0o777, radix: 8) }
}
