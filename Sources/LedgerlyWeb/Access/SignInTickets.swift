import Foundation
import LedgerlyRuntime

/// One-time sign-in links (D511). `ledgerly web open` writes a ticket file named by a fresh
/// 256-bit token into the home's `state/web-signin/` (mode 0600, folder 0700), holding the
/// Unix time it expires; visiting `/signin?token=…` consumes it.
///
/// Consuming is `unlink`: of two visits with the same token only one unlinks the file, so a link
/// works once even when two requests race. Expired tickets are refused and removed. The file
/// hand-off needs no listening socket for the CLI to reach and no secret between the two: only
/// the home's owner can write into its state folder, which is what "may sign in" means on a
/// loopback service (other local users can reach the port, not the folder).
public struct SignInTickets: Sendable {
    /// How long a link works after `ledgerly web open` printed it.
    public static let lifetimeSeconds: Int64 = 300
    public static let folderName = "web-signin"

    public let folder: URL

    public init(home: LedgerlyHome) {
        folder = home.stateDirectory.appendingPathComponent(Self.folderName)
    }

    public enum Outcome: Equatable, Sendable {
        case accepted
        /// No such ticket: never issued, already used, or removed.
        case unknown
        case expired
    }

    /// Consumes the ticket for `token`: it is gone afterwards whatever the outcome.
    public func consume(_ token: String, now: Int64) -> Outcome {
        guard RandomToken.isWellFormed(token) else { return .unknown }
        let file = folder.appendingPathComponent(token)
        guard let data = FileManager.default.contents(atPath: file.path) else { return .unknown }
        // Whoever unlinks the file owns the ticket; a second visit finds it gone.
        guard unlink(file.path) == 0 else { return .unknown }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespace
        guard let expires = Int64(text), now <= expires else { return .expired }
        return .accepted
    }

    /// Removes tickets that expired (a link printed and never visited).
    public func sweep(now: Int64) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where RandomToken.isWellFormed(name) {
            let path = folder.appendingPathComponent(name).path
            let expires = FileManager.default.contents(atPath: path).flatMap { Int64(String(decoding: $0, as: UTF8.self).trimmingWhitespace) }
            if (expires ?? 0) < now { unlink(path) }
        }
    }
}
