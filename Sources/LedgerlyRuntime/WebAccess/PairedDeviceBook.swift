import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The paired devices of a home (D594): `web/devices/` in the data directory, one 0600 file per
/// device named by the SHA-256 of its token (64 hex digits, the `key` below), holding its
/// `PairedDevice` as JSON. ledgerly-web adds one at pairing and checks the file on every request
/// of a device, so `ledgerly web revoke` (which removes the file) locks the device out at its
/// next request, with no message between the CLI and the service.
///
/// The time a device was last seen is the file's modification time, moved with `utimensat`
/// (never by rewriting the file), so a revoke racing a request cannot bring the file back.
public struct PairedDeviceBook: Sendable {
    public let folder: URL
    /// The last-seen time moves at most this often (a request is not a write).
    public static let lastSeenGranularity: Int64 = 60

    public init(home: LedgerlyHome) {
        folder = WebAccessPaths(home: home).devices
    }

    public init(folder: URL) {
        self.folder = folder
    }

    /// Whether `key` has a token hash's shape: 64 lowercase hex digits (checked before it names a file).
    public static func isKey(_ key: String) -> Bool {
        key.utf8.count == 64 && key.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Records a device under its token's hash.
    public func add(key: String, device: PairedDevice) throws {
        guard Self.isKey(key) else { throw PairedDeviceError.malformedKey }
        try SecureFile.makePrivateFolder(folder.deletingLastPathComponent())
        try SecureFile.makePrivateFolder(folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let file = folder.appendingPathComponent("\(key).json")
        try SecureFile.writeAtomically(try encoder.encode(device), to: file)
        // Last seen starts at the pairing.
        var times = [timespec(tv_sec: Int(device.pairedAt), tv_nsec: 0), timespec(tv_sec: Int(device.pairedAt), tv_nsec: 0)]
        utimensat(AT_FDCWD, file.path, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// The device whose token hashes to `key`, nil when there is none (never paired, or revoked).
    /// Moves its last-seen time when `now` is a minute or more past it.
    public func device(forKey key: String, now: Int64? = nil) -> PairedDevice? {
        guard Self.isKey(key) else { return nil }
        let path = folder.appendingPathComponent("\(key).json").path
        guard var device = Self.read(path) else { return nil }
        if let now, now - device.lastSeenAt >= Self.lastSeenGranularity {
            var times = [timespec(tv_sec: Int(now), tv_nsec: 0), timespec(tv_sec: Int(now), tv_nsec: 0)]
            if utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 { device.lastSeenAt = now }
        }
        return device
    }

    /// Every paired device, oldest pairing first.
    public func list() -> [PairedDevice] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".json") && Self.isKey(String($0.dropLast(5))) }
            .compactMap { Self.read(folder.appendingPathComponent($0).path) }
            .sorted { ($0.pairedAt, $0.id) < ($1.pairedAt, $1.id) }
    }

    /// Removes the device with this id; false when no device has it.
    @discardableResult
    public func revoke(id: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return false }
        var found = false
        for name in names where name.hasSuffix(".json") && Self.isKey(String(name.dropLast(5))) {
            let path = folder.appendingPathComponent(name).path
            if Self.read(path)?.id == id, unlink(path) == 0 { found = true }
        }
        return found
    }

    /// Removes the device whose token hashes to `key` (its own sign-out).
    public func remove(key: String) {
        guard Self.isKey(key) else { return }
        unlink(folder.appendingPathComponent("\(key).json").path)
    }

    /// A device file, refused unless it is a private regular file of this user's (as credentials
    /// are read), with its modification time as the last seen.
    static func read(_ path: String) -> PairedDevice? {
        var modified: Int64 = 0
        guard let data = try? SecureFile.readChecked(path, limit: 64 * 1024, check: { info throws(CredentialsError) in
            guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: UInt16(info.st_mode & 0o7777)) }
            #if canImport(Glibc)
            modified = Int64(info.st_mtim.tv_sec)
            #else
            modified = Int64(info.st_mtimespec.tv_sec)
            #endif
        }), var device = try? JSONDecoder().decode(PairedDevice.self, from: data) else { return nil }
        device.lastSeenAt = max(modified, device.pairedAt)
        return device
    }
}

public enum PairedDeviceError: Error, CustomStringConvertible {
    case malformedKey
    public var description: String { "a device key must be 64 lowercase hex digits" }
}
