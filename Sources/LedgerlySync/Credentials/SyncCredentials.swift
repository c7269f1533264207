import Foundation
import LedgerlyRuntime

/// What one device keeps to sync: the hub's URL (with its password), the ledger it syncs, its own
/// device id, and the ledger key derived from the passphrase — so the passphrase is asked once,
/// when the device joins, and never stored.
///
/// On disk, under `<home>/sync/` (the folder mode 0700):
/// - `hub.json`: `{"url": …, "ledgerId": …, "deviceId": …}` (mode 0600);
/// - `ledger.key`: the 32 raw key bytes (mode 0600).
///
/// Both are written atomically (a temporary file in the same folder, written, flushed, then renamed
/// over the old one), so a crash leaves the old file or the new one, never half of one. Reading
/// refuses a file that group or others may read, write or run, or that another user owns: the
/// key opens every message of the ledger, and the URL holds the hub's password.
public struct SyncCredentials: Sendable {
    public let hub: HubAddress
    public let ledgerId: UUID
    public let deviceId: UUID
    public let key: LedgerKey

    public init(hub: HubAddress, ledgerId: UUID, deviceId: UUID, key: LedgerKey) {
        self.hub = hub
        self.ledgerId = ledgerId
        self.deviceId = deviceId
        self.key = key
    }

    /// `<home>/sync`.
    public static func folder(home: URL) -> URL { home.appendingPathComponent("sync", isDirectory: true) }
    public static func hubFile(home: URL) -> URL { folder(home: home).appendingPathComponent("hub.json") }
    public static func keyFile(home: URL) -> URL { folder(home: home).appendingPathComponent("ledger.key") }

    /// What `hub.json` holds.
    struct HubFile: Codable {
        var url: String
        var ledgerId: UUID
        var deviceId: UUID
    }

    /// Writes both files (key first, so a `hub.json` never points at a missing key), creating the
    /// folder with mode 0700 or tightening an existing one to it.
    public func save(home: URL) throws(CredentialsError) {
        let folder = Self.folder(home: home)
        try SecureFile.makePrivateFolder(folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json: Data
        do {
            json = try encoder.encode(HubFile(url: hub.url, ledgerId: ledgerId, deviceId: deviceId))
        } catch {
            throw .unwritable(path: Self.hubFile(home: home).path, reason: "\(error)")
        }
        try SecureFile.writeAtomically(Data(key.bytes), to: Self.keyFile(home: home))
        try SecureFile.writeAtomically(json + Data("\n".utf8), to: Self.hubFile(home: home))
    }

    /// The device's credentials, or `nil` when this device has never joined (no `hub.json`).
    /// Throws when the files are there but unsafe, unreadable or malformed.
    public static func load(home: URL) throws(CredentialsError) -> SyncCredentials? {
        let hubPath = hubFile(home: home).path
        guard FileManager.default.fileExists(atPath: hubPath) else { return nil }
        let hubData = try SecureFile.readPrivate(hubPath)
        let file: HubFile
        do {
            file = try JSONDecoder().decode(HubFile.self, from: hubData)
        } catch {
            throw .malformed(path: hubPath, reason: "not the JSON Ledgerly writes (url, ledgerId, deviceId)")
        }
        let hub: HubAddress
        do {
            hub = try HubAddress(parsing: file.url)
        } catch {
            throw .malformed(path: hubPath, reason: error.description)
        }
        let keyPath = keyFile(home: home).path
        guard FileManager.default.fileExists(atPath: keyPath) else { throw .missing(path: keyPath) }
        let key: LedgerKey
        do {
            key = try LedgerKey(bytes: Array(try SecureFile.readPrivate(keyPath)))
        } catch let error as CredentialsError {
            throw error
        } catch {
            throw .malformed(path: keyPath, reason: "\(error)")
        }
        return SyncCredentials(hub: hub, ledgerId: file.ledgerId, deviceId: file.deviceId, key: key)
    }

    /// Removes both files (leaving sync): no error when they are already gone.
    public static func remove(home: URL) throws(CredentialsError) {
        for file in [hubFile(home: home), keyFile(home: home)] {
            do {
                try FileManager.default.removeItem(at: file)
            } catch CocoaError.fileNoSuchFile {
                continue
            } catch {
                throw .unwritable(path: file.path, reason: "\(error.localizedDescription)")
            }
        }
    }
}

extension SyncCredentials: CustomStringConvertible {
    /// The hub redacted and the key as `LedgerKey(32 bytes)`.
    public var description: String { "SyncCredentials(hub: \(hub), ledger: \(ledgerId), device: \(deviceId), key: \(key))" }
}
