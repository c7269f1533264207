/// What one scan did with one file, for the service's log and for tests.
public struct DropFolderOutcome: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The rates were stored and the file moved into `processed/`. `count` is how many were
        /// new to the store, `rates` how many the file held (fewer new means seen before).
        case stored(count: Int, rates: Int)
        /// The file was moved into `rejected/` (with a `.error.txt` beside it) for `reason`.
        case rejected(reason: String)
        /// The file was left in place, to be handled on a later scan, for `reason`.
        case deferred(reason: String)
    }

    /// The file's name in the watched folder (or the folder's path for a problem with the folder).
    public let file: String
    public let outcome: Kind

    public init(file: String, outcome: Kind) {
        self.file = file
        self.outcome = outcome
    }

    public var description: String {
        switch outcome {
        case .stored(let count, let rates): "\(file): stored \(count) new of \(rates) rates"
        case .rejected(let reason): "\(file): rejected: \(reason)"
        case .deferred(let reason): "\(file): deferred: \(reason)"
        }
    }
}
