import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// `ledgerly-store`: the only process that opens the database. Answers requests on a ROUTER
/// socket, publishes each committed change on a PUB socket, and a heartbeat every second.
public final class StoreService: Service {
    /// Largest request frame accepted; a peer that sends more is disconnected by libzmq.
    public static let maximumFrameBytes: Int64 = 1 << 20

    private let home: LedgerlyHome
    private let durability: Durability
    private let logger: Logger

    public init(home: LedgerlyHome, durability: Durability, logger: Logger) {
        self.home = home
        self.durability = durability
        self.logger = logger
    }

    public func run() async throws {
        try home.prepare()
        let lock = try InstanceLock(path: home.runDirectory.appendingPathComponent("ledgerly-store.lock").path)
        let database = try StoreDatabase(url: home.databaseURL, durability: durability)
        let router = try StoreRouter(database: database, startedAt: Timestamp.now())
        let lastSeq = PublishedSequence(try await database.pool.read(EventHandlers.lastSeq))
        let context = try ZMQContext()
        let commandEndpoint = home.storeCommandEndpoint
        let eventsEndpoint = home.storeEventsEndpoint
        let sockets = try await ZMQSocketThread.start(name: "ledgerly-store", context: context) { context in
            let commands = try ZMQSocket(context: context, type: .router)
            try commands.setMaxMessageSize(StoreService.maximumFrameBytes)
            try commands.bind(commandEndpoint)
            let events = try ZMQSocket(context: context, type: .pub)
            try events.setHighWaterMarks(send: 100_000, receive: 1_000)
            try events.bind(eventsEndpoint)
            return [commands, events]
        }
        logger.info("ready", metadata: [
            "commands": "\(commandEndpoint)", "events": "\(eventsEndpoint)", "epoch": "\(database.epoch)",
            "lastSeq": "\(lastSeq.current)", "durability": "\(durability.rawValue)", "database": "\(home.databaseURL.path)",
        ])

        let epoch = database.epoch
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    let heartbeat = Heartbeat(epoch: epoch, lastSeq: lastSeq.current, ts: Timestamp.now())
                    if let json = try? MessageCoding.encode(heartbeat) {
                        sockets.send(socket: 1, frames: [Data(Heartbeat.topic.utf8), json])
                    }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            for await message in sockets.inbound.cancelOnGracefulShutdown() {
                let request = RoutedRequest(frames: message.frames)
                guard let payload = request.payload else {
                    sockets.send(socket: 0, frames: request.replyFrames(ReplyBuilder.error(ErrorBody(code: .malformed, message: "expected exactly one JSON frame after the routing frames"), re: nil)))
                    continue
                }
                let outcome = await router.handle(payload)
                sockets.send(socket: 0, frames: request.replyFrames(outcome.reply))
                for event in outcome.events {
                    guard let json = try? MessageCoding.encode(event) else { continue }
                    sockets.send(socket: 1, frames: [Data(event.type.utf8), json])
                    lastSeq.advance(to: event.seq)
                }
            }
            group.cancelAll()
        }
        logger.info("stopping")
        await sockets.stop()
        withExtendedLifetime(lock) {}
    }
}
