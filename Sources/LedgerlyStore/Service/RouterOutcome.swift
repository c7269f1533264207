import Foundation
import LedgerlyProtocol

/// The reply to one request and the change events its commit produced (to publish after it).
struct RouterOutcome: Sendable {
    let reply: Data
    let events: [EncodedChangeEvent]
}
