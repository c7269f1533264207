import Foundation
import GRDB
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// `ledgerly-store`: the only process that opens the database. Answers requests on a ROUTER
/// socket, publishes each committed change on a PUB socket, and a heartbeat every second.
public final class StoreService: Service {
    /// Largest request frame accepted; a peer that sends more is disconnected by libzmq.
    /// 16 MiB: room for a `tx.import` batch of 20,000 items (D65), still a bound on what one
    /// peer can make the store buffer.
    public static let maximumFrameBytes: Int64 = 16 << 20

    private static let commandSocket = 0
    private static let eventSocket = 1

    private let home: LedgerlyHome
    private let durability: Durability
    private let clock: ServiceClock
    private let logger: Logger

    public init(home: LedgerlyHome, durability: Durability, clock: ServiceClock = .system, logger: Logger) {
        self.home = home
        self.durability = durability
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        try home.prepare()
        let lock = try InstanceLock(path: LedgerlyService.store.lockPath(in: home))
        let database = try StoreDatabase(url: home.databaseURL, durability: durability)
        let checkpointer = try BackgroundCheckpointer(database: database, durability: durability)
        let router = try StoreRouter(database: database, startedAt: Timestamp.now(), clock: clock, logger: logger)
        let lastSeq = PublishedSequence(try await database.pool.read(EventHandlers.lastSeq))
        let context = try ZMQContext()
        let commandEndpoint = home.storeCommandEndpoint
        let eventsEndpoint = home.storeEventsEndpoint
        let bulk = BulkRequestPipeline()
        let sockets = try await ZMQSocketThread.start(
            name: LedgerlyService.store.name, context: context,
            handler: { message in Self.answer(message, router: router, lastSeq: lastSeq, bulk: bulk) },
            makeSockets: { context in
                let commands = try ZMQSocket(context: context, type: .router)
                try commands.setMaxMessageSize(StoreService.maximumFrameBytes)
                try commands.bind(commandEndpoint)
                let events = try ZMQSocket(context: context, type: .pub)
                try events.setHighWaterMarks(send: 100_000, receive: 1_000)
                try events.bind(eventsEndpoint)
                return [commands, events]
            })
        bulk.attach(sockets)
        logger.info("ready", metadata: [
            "commands": "\(commandEndpoint)", "events": "\(eventsEndpoint)", "epoch": "\(database.epoch)",
            "lastSeq": "\(lastSeq.current)", "durability": "\(durability.rawValue)", "database": "\(home.databaseURL.path)",
            "clockOffsetSeconds": "\(clock.offsetSeconds)",
        ])

        let epoch = database.epoch
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    let heartbeat = Heartbeat(epoch: epoch, lastSeq: lastSeq.current, ts: Timestamp.now())
                    if let json = try? MessageCoding.encode(heartbeat) {
                        sockets.send(socket: Self.eventSocket, frames: [Data(Heartbeat.topic.utf8), json])
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        logger.info("stopping")
        // Large requests already taken are applied and answered before the sockets close.
        await bulk.drain()
        await sockets.stop()
        checkpointer.stop()
        database.foldWriteAheadLog(logger: logger)
        withExtendedLifetime(lock) {}
    }

    /// Runs on the socket thread: one request in, its reply and its change events out (a large
    /// request goes through the bulk pipeline and is answered from there).
    private static func answer(_ message: ZMQInbound, router: StoreRouter, lastSeq: PublishedSequence, bulk: BulkRequestPipeline) -> [ZMQOutbound] {
        guard message.socket == commandSocket else { return [] }
        let request = RoutedRequest(frames: message.frames)
        guard let payload = request.payload else {
            return [ZMQOutbound(socket: commandSocket, frames: request.replyFrames(ReplyBuilder.error(.malformedFraming, re: nil)))]
        }
        let admission = bulk.admit(payload, router: router) { thread, outcome in
            for message in outgoing(outcome, for: request, lastSeq: lastSeq) { thread.send(socket: message.socket, frames: message.frames) }
        }
        switch admission {
        case .queued:
            return []
        case .busy:
            let busy = ErrorBody(code: .unavailable, message: "the store is busy with \(BulkRequestPipeline.maximumQueued) large requests; retry in a moment")
            return [ZMQOutbound(socket: commandSocket, frames: request.replyFrames(ReplyBuilder.error(busy, re: RequestDecoding.bestEffortId(of: payload))))]
        case .closing:
            let stopping = ErrorBody(code: .unavailable, message: "the store is stopping; retry once it is back")
            return [ZMQOutbound(socket: commandSocket, frames: request.replyFrames(ReplyBuilder.error(stopping, re: RequestDecoding.bestEffortId(of: payload))))]
        case .inline:
            return outgoing(router.handle(payload), for: request, lastSeq: lastSeq)
        }
    }

    private static func outgoing(_ outcome: RouterOutcome, for request: RoutedRequest, lastSeq: PublishedSequence) -> [ZMQOutbound] {
        var outgoing = [ZMQOutbound(socket: commandSocket, frames: request.replyFrames(outcome.reply))]
        for event in outcome.events {
            outgoing.append(ZMQOutbound(socket: eventSocket, frames: [Data(event.type.utf8), event.frame]))
            lastSeq.advance(to: event.seq)
        }
        return outgoing
    }
}
