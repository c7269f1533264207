import AsyncHTTPClient
import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ZeroMQ

/// `ledgerly-rates`: follows the store's change log and, on `rates.refresh`, fetches the configured
/// providers and stores their rates for the currencies in use. (Refreshing on a schedule, backoff
/// and the drop folder come next; see docs/rates.md.)
public enum RatesService {
    public static let name = "ledgerly-rates"

    public static func make(home: LedgerlyHome, logger: Logger) throws -> ChangeFollower {
        let configuration = try RatesConfiguration.load(from: home)
        let store = AsyncRequestClient(service: "ledgerly-store", endpoint: home.storeCommandEndpoint, context: try ZMQContext(), timeoutMilliseconds: 30_000, attempts: 1)
        let refresher = RateRefresher(configuration: configuration, store: store, client: HTTPClient.shared, logger: logger)
        logger.info("providers", metadata: ["providers": "\(configuration.providers.map { "\($0.name)→\($0.profile)" }.joined(separator: ", "))"])
        return ChangeFollower(
            service: name, statusEndpoint: home.ratesCommandEndpoint, home: home, consumer: LoggingChangeConsumer(logger: logger), logger: logger,
            requestHandler: { header, frame in await answer(header, frame, refresher: refresher) })
    }

    /// The rates service's own requests: `rates.refresh`.
    private static func answer(_ header: EnvelopeHeader, _ frame: Data, refresher: RateRefresher) async -> Data {
        guard header.type == MessageType.ratesRefresh.rawValue else {
            return ReplyBuilder.error(ErrorBody(code: .unknownType, message: "\(name) answers status and rates.refresh, not '\(header.type)'", field: "type"), re: header.id)
        }
        do {
            _ = try RequestDecoding.request(RatesRefreshRequest.self, from: frame)
            return ReplyBuilder.ok(RatesRefreshReply(providers: try await refresher.refresh()), for: header)
        } catch let error as ErrorBody {
            return ReplyBuilder.error(error, re: header.id)
        } catch let error as ClientError {
            return ReplyBuilder.error(error.errorBody, re: header.id)
        } catch {
            return ReplyBuilder.error(ErrorBody(code: .internal, message: "\(error)"), re: header.id)
        }
    }
}
