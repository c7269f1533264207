import Foundation

/// What a chaos run does: how many writers, how many writes each, how many kills.
public struct ChaosConfiguration: Sendable {
    /// The folder holding `ledgerly-store`, `ledgerly-rates` and `ledgerly-alerts`.
    public var binaries: URL
    /// Concurrent clients, each retrying every write with its key until it is acknowledged.
    public var writers: Int
    /// Transactions each writer records.
    public var writesPerWriter: Int
    /// `kill -9`s, cycling through the store, the rates and the alerts service.
    public var kills: Int
    /// Pause after a restarted service answers before the next kill.
    public var pauseBetweenKills: Duration

    public init(binaries: URL, writers: Int = 8, writesPerWriter: Int = 40, kills: Int = 6, pauseBetweenKills: Duration = .milliseconds(300)) {
        self.binaries = binaries
        self.writers = writers
        self.writesPerWriter = writesPerWriter
        self.kills = kills
        self.pauseBetweenKills = pauseBetweenKills
    }
}
