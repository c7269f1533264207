import Foundation

/// The time a service works with: the system clock, optionally shifted by a fixed offset.
///
/// The offset (`--clock-offset SECONDS` on every service) exists so tests and rehearsals can
/// simulate time passing — a rate going stale, months of downtime — with the real processes,
/// instead of waiting or faking them. It is a value handed to what needs "now", not a global.
public struct ServiceClock: Sendable, Hashable {
    public let offsetSeconds: Int64

    public static let system = ServiceClock(offsetSeconds: 0)

    public init(offsetSeconds: Int64) { self.offsetSeconds = offsetSeconds }

    public func now() -> Date { Date().addingTimeInterval(TimeInterval(offsetSeconds)) }

    /// The service option that sets the offset, for `ServiceCommandLine.parse(extraOptions:)`.
    public static let option = (name: "--clock-offset", help: "shift this service's clock by SECONDS (for tests and rehearsals)")

    /// The clock a parsed command line asks for; a bad value is a usage error (exit 64).
    public static func from(_ commandLine: ServiceCommandLine, service: String) -> ServiceClock {
        guard let text = commandLine.options[option.name] else { return .system }
        guard let seconds = Int64(text), abs(seconds) <= 100 * 365 * 86_400 else {
            FileHandle.standardError.write(Data("\(service): --clock-offset must be a whole number of seconds, got '\(text)'\n".utf8))
            exit(64)
        }
        return ServiceClock(offsetSeconds: seconds)
    }
}
