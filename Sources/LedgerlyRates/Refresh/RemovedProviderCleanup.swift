import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle

/// A provider taken out of `rates.json` would otherwise stay in the store's status, failing as it
/// last did, forever. Once per start, after the follower holds the lock, every status the store
/// keeps for a provider this configuration does not have is forgotten (retried until the store
/// answers); then this service ends, which ends nothing else.
struct RemovedProviderCleanup: Service {
    /// Between tries while the store does not answer: each try already waited out the store
    /// client's own retries, so this only keeps a store that is down from being asked in a loop.
    static let retryInterval: Duration = .seconds(2)

    let configured: Set<String>
    let store: AsyncRequestClient
    let ready: ReadySignal
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await ready.wait() else { return }
            while !Task.isCancelled {
                do {
                    for status in try await store.call(RateProviderListRequest()).providers where !configured.contains(status.name) {
                        _ = try await store.call(RateProviderForgetRequest(name: status.name))
                        logger.notice("forgot a provider that is no longer configured", metadata: ["provider": "\(status.name)"])
                    }
                    return
                } catch {
                    try? await Task.sleep(for: Self.retryInterval)
                }
            }
        }
    }
}
