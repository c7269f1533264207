import Foundation
import LedgerlyCore
import LedgerlyProtocol

/// Picks up the rate files a person drops into a folder (`<home>/dropfolder/` by default) and
/// hands their rates to the store, one file at a time.
///
/// A dropped file is a request the user made by hand and cannot watch happen, so every file ends
/// up somewhere that says what became of it: `processed/` when its rates were stored,
/// `rejected/` with a `<name>.error.txt` beside it when the file is wrong (the reason names the
/// line to fix), or left where it is when the store is down, to be tried on the next scan. A
/// scan never throws: one bad file must not keep the others, or the service, from running.
///
/// Each scan takes the regular files whose name ends in `.csv` or `.json` (in any case), in name
/// order, skipping hidden files (editors' and spreadsheets' lock and temporary files start with
/// `.`) and files modified less than `settleSeconds` ago (a file still being written or copied
/// would otherwise be read half-done and rejected for a cut-off line).
///
/// Lines without a date are stamped with the file's modification time, not the time of the
/// scan, so reading the same file again (after the store was down, or a copy dropped twice)
/// gives the same moments and the store, which keeps one rate per pair and moment, stores
/// nothing twice.
public struct DropFolderWatcher: Sendable {
    /// Stores the rates of one file and returns how many were new. `file` is the file's name,
    /// for the store's records and messages. Throws `.rejected` when the store refused the rates
    /// (it stored none of them) and `.unavailable` when it could not be asked.
    public typealias Deliver = @Sendable (_ file: String, _ rates: [DropFolderRate]) async throws(DropFolderDeliveryError) -> Int

    /// Where files whose rates were stored go, inside the watched folder.
    public static let processedFolderName = "processed"
    /// Where files that could not be used go, each with a `<name>.error.txt` saying why.
    public static let rejectedFolderName = "rejected"
    /// A rates file typed or exported by hand is a few kilobytes; anything past this is not one
    /// (a misplaced export, a disk image renamed by mistake), and reading it whole would hold it
    /// all in memory for nothing.
    public static let maximumFileSize = 16 * 1_024 * 1_024

    /// What became of one settled file's content, as `Apply` reports it.
    public enum FileDelivery: Sendable {
        /// Stored: `count` new of the `items` the file held.
        case stored(count: Int, items: Int)
        /// The file itself is wrong (`reason` names the line): it goes to `rejected/`.
        case unreadable(String)
        /// The store refused it or could not be asked.
        case failed(DropFolderDeliveryError)
    }

    /// Reads one file's bytes and stores what it holds. `stamp` is the file's modification time
    /// (ISO 8601 UTC), the moment of lines that give none, so the same file always gives the
    /// same moments.
    public typealias Apply = @Sendable (_ file: String, _ data: Data, _ stamp: String) async -> FileDelivery

    /// The watched folder.
    public let folder: URL
    /// How long a file must have been left unmodified before it is read.
    public let settleSeconds: Double
    /// What the files hold ("rates", "prices"), for messages.
    public let noun: String
    private let apply: Apply

    /// - Parameters:
    ///   - folder: the folder to watch; `run` creates it (0700) when it is missing.
    ///   - settleSeconds: how long a file must be unmodified before it is read; tests pass 0.
    ///   - deliver: stores one file's rates; see `Deliver`.
    public init(folder: URL, settleSeconds: Double = 1, deliver: @escaping Deliver) {
        self.init(folder: folder, settleSeconds: settleSeconds, noun: "rates") { file, data, stamp in
            let parsed: [ProviderRate]
            do throws(ProviderError) {
                parsed = try DropFolderParser().parse(data)
            } catch {
                return .unreadable(Self.reason(error))
            }
            let rates = parsed.map { rate in
                DropFolderRate(base: rate.base, quote: rate.quote, rate: rate.rate, asOf: rate.timestamp ?? rate.date?.description ?? stamp)
            }
            do throws(DropFolderDeliveryError) {
                return .stored(count: try await deliver(file, rates), items: rates.count)
            } catch {
                return .failed(error)
            }
        }
    }

    /// A watcher for another kind of file (the price drop folder): `apply` reads and stores one
    /// file; moving it, and every safety rule above, is the same.
    public init(folder: URL, settleSeconds: Double = 1, noun: String, apply: @escaping Apply) {
        self.folder = folder
        self.settleSeconds = settleSeconds
        self.noun = noun
        self.apply = apply
    }

    /// Scans every `interval` until the task is cancelled, reporting what became of each file.
    ///
    /// The folder is (re)created before each scan, so a user who deletes it does not silently
    /// stop the service from picking up files. A folder that cannot be created or listed is
    /// reported as an outcome whose `file` is the folder's path, once until the problem changes,
    /// so a broken folder is in the log without filling it.
    public func run(every interval: Duration, onOutcome: @Sendable (DropFolderOutcome) async -> Void) async {
        var lastFolderProblem: DropFolderOutcome?
        while !Task.isCancelled {
            let outcomes: [DropFolderOutcome]
            do throws(DropFolderFileError) {
                try Self.createDirectory(folder)
                outcomes = await scan()
            } catch {
                outcomes = [folderProblem("cannot create the drop folder \(folder.path): \(error)")]
            }
            let folderProblem = outcomes.first { $0.file == folder.path }
            for outcome in outcomes where outcome.file != folder.path || outcome != lastFolderProblem {
                await onOutcome(outcome)
            }
            lastFolderProblem = folderProblem
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }

    /// Handles every file that is ready, in name order, and says what became of each one.
    /// Files that are not candidates or not settled yet get no outcome: nothing was done.
    ///
    /// - Parameter now: the time settling is measured from; the clock by default.
    public func scan(now: Date = Date()) async -> [DropFolderOutcome] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            // A folder that is not there yet has nothing to pick up; one that is there but
            // cannot be listed is a problem the user has to fix, so it is reported.
            guard FileState(at: folder) != nil else { return [] }
            return [folderProblem("cannot list the drop folder \(folder.path): \(DropFolderFileError(error))")]
        }
        var outcomes: [DropFolderOutcome] = []
        for name in names.filter(Self.isCandidate).sorted() {
            // Files not reached stay in the folder for the next run: nothing is lost by stopping.
            if Task.isCancelled { break }
            if let outcome = await handle(name, now: now) { outcomes.append(outcome) }
        }
        return outcomes
    }

    /// A visible file whose name ends in ".csv" or ".json", in any case (spreadsheets on some
    /// systems save "RATES.CSV").
    static func isCandidate(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return !name.hasPrefix(".") && (lowered.hasSuffix(".csv") || lowered.hasSuffix(".json"))
    }

    /// One file, from reading it to moving it; `nil` when the file is not to be handled now.
    private func handle(_ name: String, now: Date) async -> DropFolderOutcome? {
        let url = folder.appendingPathComponent(name, isDirectory: false)
        // Not there any more, a directory named "x.csv", a symbolic link or a device: not a
        // dropped file, so left alone.
        guard let before = FileState(at: url), before.isRegularFile else { return nil }
        guard now.timeIntervalSince(before.modified) >= settleSeconds else { return nil }
        guard before.size <= Self.maximumFileSize else {
            return reject(name, at: url, reason: "the file is \(before.size) bytes; a file of \(noun) is at most \(Self.maximumFileSize) bytes")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            guard FileState(at: url) != nil else { return nil }
            return reject(name, at: url, reason: "the file cannot be read: \(DropFolderFileError(error))")
        }
        // Written to while it was read: what was read may be half old and half new, and the
        // modification time no longer stamps it. Read it again once it has settled.
        guard FileState(at: url) == before else { return nil }

        let stored: Int, items: Int
        switch await apply(name, data, Timestamp.string(from: before.modified)) {
        case .stored(let count, let total):
            (stored, items) = (count, total)
        case .unreadable(let reason):
            return reject(name, at: url, reason: reason)
        case .failed(.unavailable(let message)):
            return DropFolderOutcome(file: name, outcome: .deferred(reason: "the store is unavailable (\(message)); the file stays to be tried again"))
        case .failed(.rejected(let message)):
            return reject(name, at: url, reason: "the store refused the \(noun): \(message)")
        }

        // Replaced while the store had it: the new content was not delivered, so it stays for the
        // next scan instead of being filed away unread.
        guard let after = FileState(at: url) else {
            return DropFolderOutcome(file: name, outcome: .stored(count: stored, rates: items))
        }
        guard after == before else {
            return DropFolderOutcome(file: name, outcome: .deferred(reason: "the file changed while its \(noun) were stored; it will be read again"))
        }
        do throws(DropFolderFileError) {
            _ = try Self.move(url, into: folder.appendingPathComponent(Self.processedFolderName, isDirectory: true))
        } catch {
            // Gone already (the user moved it): its rates are stored and there is nothing to file.
            guard FileState(at: url) != nil else {
                return DropFolderOutcome(file: name, outcome: .stored(count: stored, rates: items))
            }
            return DropFolderOutcome(file: name, outcome: .deferred(reason:
                "its \(items) \(noun) were stored (\(stored) new) but it could not be moved into \(Self.processedFolderName)/: \(error); "
                    + "it will be delivered again, which stores nothing twice"))
        }
        return DropFolderOutcome(file: name, outcome: .stored(count: stored, rates: items))
    }

    /// Files the file away in `rejected/` with the reason beside it, where the user looking for
    /// their rates finds it; the reason is also the outcome, for the service's log.
    private func reject(_ name: String, at url: URL, reason: String) -> DropFolderOutcome {
        let destination: URL
        do throws(DropFolderFileError) {
            destination = try Self.move(url, into: folder.appendingPathComponent(Self.rejectedFolderName, isDirectory: true))
        } catch {
            guard FileState(at: url) != nil else { return DropFolderOutcome(file: name, outcome: .rejected(reason: reason)) }
            return DropFolderOutcome(file: name, outcome: .rejected(reason: "\(reason) (it could not be moved into \(Self.rejectedFolderName)/: \(error))"))
        }
        let note = """
            \(name) was not used: \(reason)

            Nothing from it was stored. Fix the file and drop it into \(folder.path) again.

            """
        do {
            try Data(note.utf8).write(to: URL(fileURLWithPath: destination.path + ".error.txt"), options: .atomic)
        } catch {
            return DropFolderOutcome(file: name, outcome: .rejected(reason: "\(reason) (the note \(destination.lastPathComponent).error.txt could not be written: \(DropFolderFileError(error)))"))
        }
        return DropFolderOutcome(file: name, outcome: .rejected(reason: reason))
    }

    /// The parser's message, except where it is worded for a provider's download rather than a
    /// file the user made.
    static func reason(_ error: ProviderError) -> String {
        switch error {
        case .empty: "the file is empty: it needs a header line (base,quote,rate[,date]) and at least one rate, or a JSON array of rates"
        case .htmlPage: "the file is an HTML page, not CSV or JSON rates"
        default: error.description
        }
    }

    private func folderProblem(_ reason: String) -> DropFolderOutcome {
        DropFolderOutcome(file: folder.path, outcome: .deferred(reason: reason))
    }

    /// Moves `url` into `directory` (created if missing) under its own name, or with "-2", "-3"…
    /// before the extension when that name is taken: a file dropped twice must not overwrite
    /// the record of the first.
    static func move(_ url: URL, into directory: URL) throws(DropFolderFileError) -> URL {
        try createDirectory(directory)
        let name = url.lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        let pathExtension = (name as NSString).pathExtension
        for number in 1...10_000 {
            let candidate = number == 1 ? name : pathExtension.isEmpty ? "\(stem)-\(number)" : "\(stem)-\(number).\(pathExtension)"
            let destination = directory.appendingPathComponent(candidate, isDirectory: false)
            if FileState(at: destination) != nil { continue }
            do {
                try FileManager.default.moveItem(at: url, to: destination)
                return destination
            } catch {
                // Taken between the check and the move: try the next name.
                if FileState(at: destination) != nil { continue }
                throw DropFolderFileError(error)
            }
        }
        throw DropFolderFileError("no free name for \(name) in \(directory.path)")
    }

    /// Creates `directory` readable by its owner only (rates say what currencies a person holds);
    /// an existing one keeps the permissions its owner gave it.
    static func createDirectory(_ directory: URL) throws(DropFolderFileError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DropFolderFileError(error)
        }
    }
}

/// What a file's modification time and size were at one moment, read without following a
/// symbolic link; two equal states mean the file was not written in between.
private struct FileState: Equatable {
    let isRegularFile: Bool
    let modified: Date
    let size: Int

    /// `nil` when there is nothing at `url` (or it cannot be looked at).
    init?(at url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        isRegularFile = (attributes[.type] as? FileAttributeType) == .typeRegular
        modified = (attributes[.modificationDate] as? Date) ?? .distantPast
        size = (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// A file-system failure, as one line for an outcome or an error note.
struct DropFolderFileError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// Foundation's message without its generic lead-in and final period, so it reads as part
    /// of a sentence: "…could not be moved into processed/: A file with the same name already exists".
    init(_ error: any Error) {
        var text = Substring(error.localizedDescription)
        let generic = "The operation could not be completed. "
        if text.hasPrefix(generic), text.count > generic.count { text = text.dropFirst(generic.count) }
        while text.hasSuffix(".") { text = text.dropLast() }
        self.description = String(text)
    }
}
