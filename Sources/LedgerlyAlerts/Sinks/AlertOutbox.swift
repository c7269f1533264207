import Foundation
import LedgerlyProtocol
import LedgerlyRuntime

/// One webhook delivery waiting in the outbox: what is delivered and where its retries stand.
public struct AlertOutboxEntry: Codable, Hashable, Sendable {
    /// The webhook's configured name.
    public var sink: String
    public var notice: SinkNotice
    /// Attempts made so far.
    public var attempts: Int
    /// Not before this moment.
    public var nextAttemptAt: Date
    public var enqueuedAt: Date
    /// Why the last attempt failed.
    public var lastError: String?

    public init(sink: String, notice: SinkNotice, attempts: Int = 0, nextAttemptAt: Date, enqueuedAt: Date, lastError: String? = nil) {
        self.sink = sink
        self.notice = notice
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.enqueuedAt = enqueuedAt
        self.lastError = lastError
    }

    public init(sink: String, alert: AlertRecord, attempts: Int = 0, nextAttemptAt: Date, enqueuedAt: Date, lastError: String? = nil) {
        self.init(sink: sink, notice: .alert(alert), attempts: attempts, nextAttemptAt: nextAttemptAt, enqueuedAt: enqueuedAt, lastError: lastError)
    }

    /// The alert, when the delivery is one.
    public var alert: AlertRecord? {
        if case .alert(let alert) = notice { alert } else { nil }
    }

    /// `<sink>-<alert id>.json`, `<sink>-tx-<seq>.json`.
    public var fileName: String { "\(sink)-\(notice.deliveryId).json" }

    // The file keeps the shape it had when only alerts were delivered (`alert`), and a change
    // goes under `change`, so outbox files written before an upgrade are still read.
    private enum CodingKeys: String, CodingKey {
        case sink, alert, change, attempts, nextAttemptAt, enqueuedAt, lastError
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sink = try container.decode(String.self, forKey: .sink)
        if let alert = try container.decodeIfPresent(AlertRecord.self, forKey: .alert) {
            notice = .alert(alert)
        } else {
            notice = .transaction(try container.decode(ChangeEvent.self, forKey: .change))
        }
        attempts = try container.decode(Int.self, forKey: .attempts)
        nextAttemptAt = try container.decode(Date.self, forKey: .nextAttemptAt)
        enqueuedAt = try container.decode(Date.self, forKey: .enqueuedAt)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sink, forKey: .sink)
        switch notice {
        case .alert(let alert): try container.encode(alert, forKey: .alert)
        case .transaction(let change): try container.encode(change, forKey: .change)
        }
        try container.encode(attempts, forKey: .attempts)
        try container.encode(nextAttemptAt, forKey: .nextAttemptAt)
        try container.encode(enqueuedAt, forKey: .enqueuedAt)
        try container.encodeIfPresent(lastError, forKey: .lastError)
    }
}

/// The webhook outbox, `<home>/state/alerts-outbox/`: one JSON file per pending delivery, written
/// atomically and flushed to disk (write a temporary file, fsync, rename, fsync the folder), so
/// neither a crash nor `kill -9` nor a power loss leaves half a file or loses an enqueued alert.
/// Deliveries that used up their attempts are moved to `failed/` for a human to look at.
public struct AlertOutbox: Sendable {
    public let directory: URL
    public var failedDirectory: URL { directory.appendingPathComponent("failed") }

    public init(home: LedgerlyHome) {
        directory = home.stateDirectory.appendingPathComponent("alerts-outbox")
    }

    public init(directory: URL) { self.directory = directory }

    public func url(of entry: AlertOutboxEntry) -> URL { directory.appendingPathComponent(entry.fileName) }

    /// Writes (or rewrites) an entry.
    public func save(_ entry: AlertOutboxEntry) throws(AlertOutboxError) {
        try prepare(directory)
        let data: Data
        do { data = try Self.encoder.encode(entry) } catch { throw .cannotWrite(url(of: entry).path, "\(error)") }
        try Self.writeDurably(data, to: url(of: entry))
    }

    /// Removes a delivered entry.
    public func remove(_ entry: AlertOutboxEntry) throws(AlertOutboxError) {
        let path = url(of: entry).path
        if unlink(path) != 0, errno != ENOENT { throw .cannotWrite(path, String(cString: strerror(errno))) }
        Self.syncDirectory(directory)
    }

    /// Records the final state of an entry that used up its attempts, in `failed/`; returns its path.
    @discardableResult
    public func moveToFailed(_ entry: AlertOutboxEntry) throws(AlertOutboxError) -> URL {
        try prepare(failedDirectory)
        let destination = failedDirectory.appendingPathComponent(entry.fileName)
        let data: Data
        do { data = try Self.encoder.encode(entry) } catch { throw .cannotWrite(destination.path, "\(error)") }
        try Self.writeDurably(data, to: destination)
        try remove(entry)
        return destination
    }

    /// Every pending entry, and the files that could not be read (moved to `failed/` as
    /// `<name>.unreadable`, so they are not tried again and again).
    public func load() -> (entries: [AlertOutboxEntry], unreadable: [(file: String, reason: String)]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return ([], []) }
        var entries: [AlertOutboxEntry] = []
        var unreadable: [(file: String, reason: String)] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let file = directory.appendingPathComponent(name)
            do {
                let entry = try Self.decoder.decode(AlertOutboxEntry.self, from: Data(contentsOf: file))
                if entry.fileName == name {
                    entries.append(entry)
                    continue
                }
                unreadable.append((file.path, "its name does not match its content (\(entry.fileName))"))
            } catch {
                unreadable.append((file.path, "\(error)"))
            }
            try? prepare(failedDirectory)
            _ = rename(file.path, failedDirectory.appendingPathComponent(name + ".unreadable").path)
        }
        // Leftovers of writes interrupted by a crash.
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        return (entries, unreadable)
    }

    // MARK: Files

    private func prepare(_ folder: URL) throws(AlertOutboxError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotWrite(folder.path, error.localizedDescription)
        }
    }

    private static func writeDurably(_ data: Data, to url: URL) throws(AlertOutboxError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(temporary.path, String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw .cannotWrite(url.path, failure)
        }
        syncDirectory(folder)
    }

    private static func syncDirectory(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static var encoder: JSONEncoder {
        let encoder = MessageCoding.encoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(dateStyle))
        }
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = MessageCoding.decoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do { return try dateStyle.parse(text) } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
        }
        return decoder
    }
}

public enum AlertOutboxError: Error, CustomStringConvertible, Hashable, Sendable {
    case cannotWrite(String, String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write the alert outbox file \(path): \(reason)"
        }
    }
}
