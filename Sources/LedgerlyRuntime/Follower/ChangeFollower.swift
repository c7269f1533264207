import FoundationEssentials
import Glibc
import LedgerlyCore
import LedgerlyProtocol
import Logging
import ServiceLifecycle
import Synchronization
import ZeroMQ

/// Follows the store's change log for a subscriber service (ZeroMQ Guide, Clone pattern).
///
/// PUB/SUB is only a hint: the follower persists the last `seq` it handled, asks the store for
/// `events.since` on start, on a gap in the published seqs, when a heartbeat shows it is behind,
/// and when heartbeats stop; events at or below the cursor are skipped. So a restart, a dropped
/// message or a restarted store never loses or repeats a change.
///
/// All handling happens on one loop, in order, so a consumer never sees two events at once.
/// `status` requests are answered on the socket thread from the saved cursor, so a long
/// catch-up never makes the service look dead.
public final class ChangeFollower: Service {
    enum Work: Sendable {
        case published([Data])
        case tick
    }

    /// No heartbeat for this long means the store (or the link to it) is gone: catch up by request.
    public static let silenceLimit: Duration = .seconds(3)

    private static let subscriberSocket = 0
    private static let statusSocket = 1

    private let service: String
    private let statusEndpoint: String
    private let context: ZMQContext
    private let lockPath: String
    private let home: LedgerlyHome
    private let consumer: any ChangeConsumer
    private let logger: Logger
    private let cursorFile: CursorFile
    private let cursor: Mutex<FollowerCursor>
    private let stopping = Mutex(false)
    private let startedAt = Timestamp.now()
    /// The service's own request types beside `status` (the rates service's `rates.refresh`).
    private let routes: RequestRoutes<ServiceRequestHandler>

    /// Set once `run` holds the instance lock and its sockets are bound: the services beside the
    /// follower (schedules, the drop folder) wait for it before they act.
    public let ready: ReadySignal

    /// `context` is the process's one ZeroMQ context, shared with the service's other clients.
    public init(service: LedgerlyService, home: LedgerlyHome, context: ZMQContext, consumer: any ChangeConsumer, logger: Logger,
                ready: ReadySignal = ReadySignal(), routes: RequestRoutes<ServiceRequestHandler>? = nil) {
        self.routes = routes ?? RequestRoutes(service: service.name)
        self.service = service.name
        self.statusEndpoint = service.commandEndpoint(in: home)
        self.context = context
        self.lockPath = service.lockPath(in: home)
        self.ready = ready
        self.home = home
        self.consumer = consumer
        self.logger = logger
        self.cursorFile = CursorFile(home: home, service: service.name)
        self.cursor = Mutex(cursorFile.load())
    }

    public var currentCursor: FollowerCursor { cursor.withLock { $0 } }

    public func run() async throws {
        try home.prepare()
        let lock = try InstanceLock(path: lockPath)
        let context = context
        let statusEndpoint = statusEndpoint
        let eventsEndpoint = home.storeEventsEndpoint
        // `status` is answered from the cursor; the shared route table makes the checks every
        // service makes (a known type, a key on a write) and holds the service's own types.
        var table = routes
        table.add(StatusRequest.self, answer: { [self] _ in statusReply() })
        guard table.duplicates.isEmpty else { throw FollowerError.duplicateRoutes(service, table.duplicates) }
        let routes = table
        let sockets = try await ZMQSocketThread.start(
            name: service, context: context,
            handler: { [self] message in
                guard message.socket == Self.statusSocket else { return nil }
                // `status`, and any request that fails before its handler (unreadable, an
                // unknown type), is answered here, at once; the others go to their handlers,
                // off this thread.
                return answerAtOnce(message.frames, routes: routes).map { [$0] }
            },
            makeSockets: { context in
                let subscriber = try ZMQSocket(context: context, type: .sub)
                try subscriber.subscribe("")
                try subscriber.connect(eventsEndpoint)
                let status = try ZMQSocket(context: context, type: .router)
                try status.setMaxMessageSize(1 << 20)
                try status.bind(statusEndpoint)
                return [subscriber, status]
            })
        let store = AsyncRequestClient(.store, home: home, context: context, timing: .followerCatchUp)
        let start = currentCursor
        ready.set()
        logger.info("started", metadata: ["cursor.seq": "\(start.seq)", "cursor.epoch": "\(start.epoch ?? "none")", "status": "\(statusEndpoint)"])

        // Bounded like the socket thread's stream: a dropped event shows up as a gap later.
        let (work, workInput) = AsyncStream.makeStream(of: Work.self, bufferingPolicy: .bufferingOldest(10_000))
        let (requests, requestInput) = AsyncStream.makeStream(of: RoutedRequest.self, bufferingPolicy: .bufferingOldest(100))
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await message in sockets.inbound {
                        if message.socket == Self.subscriberSocket {
                            workInput.yield(.published(message.frames))
                        } else {
                            requestInput.yield(RoutedRequest(frames: message.frames))
                        }
                    }
                    workInput.finish()
                    requestInput.finish()
                }
                group.addTask {
                    // Each request on its own task, so a long one (a refresh fetching for
                    // seconds) does not hold up the others; the handler serialises what must
                    // not run twice at once. Cancelled with the rest at shutdown.
                    await withDiscardingTaskGroup { handlers in
                        for await request in requests {
                            guard let payload = request.payload, let header = try? RequestDecoding.header(of: payload),
                                  let route = try? routes.route(for: header) else { continue }
                            handlers.addTask { sockets.send(socket: Self.statusSocket, frames: request.replyFrames(await Self.reply(route.handler, header, payload))) }
                        }
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        workInput.yield(.tick)
                    }
                }
                await self.follow(work: work, store: store)
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.stopping.withLock { $0 = true }
            workInput.finish()
            requestInput.finish()
        }
        logger.info("stopping", metadata: ["cursor.seq": "\(currentCursor.seq)"])
        await sockets.stop()
        withExtendedLifetime(lock) {}
        // Ending without being asked to means the sockets are gone: exit, so supervisor restarts us.
        if !stopping.withLock({ $0 }) { throw FollowerError.socketsClosed(service) }
    }

    private func follow(work: AsyncStream<Work>, store: AsyncRequestClient) async {
        var lastHeard = ContinuousClock.now
        var storeReachable = await catchUp(store: store, reason: "start")
        for await item in work {
            if isStopping { return }
            switch item {
            case .published(let frames):
                lastHeard = ContinuousClock.now
                guard frames.count == 2 else { continue }
                let decoder = MessageCoding.decoder()
                if String(decoding: frames[0], as: UTF8.self) == Heartbeat.topic {
                    guard let heartbeat = try? decoder.decode(Heartbeat.self, from: frames[1]) else { continue }
                    let known = currentCursor
                    // A last seq below the cursor means the database was put back from a copy
                    // under the same epoch: catch-up sees it and replays (D80).
                    if heartbeat.epoch != known.epoch || heartbeat.lastSeq != known.seq || !storeReachable {
                        storeReachable = await catchUp(store: store, reason: "heartbeat shows seq \(heartbeat.lastSeq)")
                    }
                    continue
                }
                guard let event = try? decoder.decode(ChangeEvent.self, from: frames[1]) else {
                    logger.warning("ignored an unreadable event", metadata: ["topic": "\(String(decoding: frames[0], as: UTF8.self))"])
                    continue
                }
                let known = currentCursor
                if event.epoch == known.epoch && event.seq <= known.seq { continue }
                if event.epoch == known.epoch && event.seq == known.seq + 1 {
                    if !(await apply(event)) { storeReachable = await catchUp(store: store, reason: "retry") }
                } else {
                    storeReachable = await catchUp(store: store, reason: "gap before seq \(event.seq)")
                }
            case .tick:
                if ContinuousClock.now - lastHeard > Self.silenceLimit {
                    lastHeard = ContinuousClock.now
                    storeReachable = await catchUp(store: store, reason: "no heartbeat")
                }
            }
        }
    }

    /// Reads `events.since` until it has everything; returns whether the store answered.
    private func catchUp(store: AsyncRequestClient, reason: String) async -> Bool {
        let from = currentCursor
        var handled = 0
        // Shutdown is honoured between events: a long catch-up never keeps the service from stopping.
        while !isStopping {
            let known = currentCursor
            let page: EventsSinceReply
            do {
                page = try await store.call(EventsSinceRequest(after: known.epoch == nil ? 0 : known.seq, limit: 500))
            } catch {
                logger.warning("store unreachable; will catch up when it answers", metadata: ["reason": "\(reason)", "error": "\(error)"])
                return false
            }
            // A new epoch, or the same epoch with a change log that ends before the cursor (a
            // database put back from a copy by hand), is another history: replay it from the start.
            let rewound = page.epoch == known.epoch && page.lastSeq < known.seq
            if page.epoch != known.epoch || rewound {
                if known.epoch != nil {
                    logger.notice("store database replaced; replaying its change log from the start", metadata: [
                        "old": "\(known.epoch ?? "")", "new": "\(page.epoch)", "cursor.seq": "\(known.seq)", "store.lastSeq": "\(page.lastSeq)"])
                }
                await consumer.storeReplaced(oldEpoch: known.epoch, newEpoch: page.epoch, lastSeq: page.lastSeq)
                guard setCursor(FollowerCursor(epoch: page.epoch, seq: 0)) else { return true }
                continue
            }
            for event in page.events where event.seq > currentCursor.seq {
                if isStopping { return true }
                guard event.seq == currentCursor.seq + 1 else {
                    logger.error("change log has a hole; stopping catch-up", metadata: ["expected": "\(currentCursor.seq + 1)", "got": "\(event.seq)"])
                    return true
                }
                guard await apply(event) else { return true }
                handled += 1
            }
            if page.events.isEmpty || currentCursor.seq >= page.lastSeq {
                if handled > 0 || reason == "start" {
                    logger.info("caught up", metadata: ["from": "\(from.seq)", "to": "\(currentCursor.seq)", "events": "\(handled)", "storeLastSeq": "\(page.lastSeq)", "reason": "\(reason)"])
                }
                return true
            }
        }
        return true
    }

    private var isStopping: Bool { stopping.withLock { $0 } || Task.isCancelled }

    /// Hands one event to the consumer, then moves the cursor past it. A consumer failure (or a
    /// cursor that cannot be saved) leaves the cursor where it was, so the event is offered again.
    private func apply(_ event: ChangeEvent) async -> Bool {
        do {
            try await consumer.handle(event)
        } catch {
            logger.error("consumer failed; will retry", metadata: ["seq": "\(event.seq)", "error": "\(error)"])
            return false
        }
        return setCursor(FollowerCursor(epoch: event.epoch, seq: event.seq))
    }

    /// Saves the cursor file first, then the in-memory copy that `status` reports: whatever
    /// `status` has said is handled is on disk, so a `kill -9` after it never replays it.
    private func setCursor(_ new: FollowerCursor) -> Bool {
        do {
            try cursorFile.save(new)
        } catch {
            logger.error("could not save the cursor; will retry", metadata: ["error": "\(error)", "path": "\(cursorFile.url.path)"])
            return false
        }
        cursor.withLock { $0 = new }
        return true
    }

    /// Runs on the socket thread: the reply to send now, or nil for a request its handler answers.
    private func answerAtOnce(_ frames: [Data], routes: RequestRoutes<ServiceRequestHandler>) -> ZMQOutbound? {
        let request = RoutedRequest(frames: frames)
        guard let payload = request.payload else {
            return ZMQOutbound(socket: Self.statusSocket, frames: request.replyFrames(ReplyBuilder.error(.malformedFraming, re: nil)))
        }
        let reply: Data
        do throws(ErrorBody) {
            let header = try RequestDecoding.header(of: payload)
            guard try routes.route(for: header).request.messageType == StatusRequest.messageType else { return nil }
            _ = try RequestDecoding.request(StatusRequest.self, from: payload)
            reply = ReplyBuilder.ok(statusReply(), for: header)
        } catch {
            reply = ReplyBuilder.error(error, re: RequestDecoding.bestEffortId(of: payload))
        }
        return ZMQOutbound(socket: Self.statusSocket, frames: request.replyFrames(reply))
    }

    private func statusReply() -> StatusReply {
        let known = currentCursor
        return StatusReply(service: service, version: LedgerlyVersion.current, pid: getpid(), startedAt: startedAt, lastSeq: known.seq, epoch: known.epoch)
    }

    /// A handler's reply, or the error reply for what it threw.
    private static func reply(_ handler: ServiceRequestHandler, _ header: EnvelopeHeader, _ frame: Data) async -> Data {
        do {
            return try await handler(header, frame)
        } catch let error as ErrorBody {
            return ReplyBuilder.error(error, re: header.id)
        } catch let error as ClientError {
            return ReplyBuilder.error(error.errorBody, re: header.id)
        } catch {
            return ReplyBuilder.error(ErrorBody(code: .internal, message: "\(error)"), re: header.id)
        }
    }
}

/// Why a follower stopped on its own.
enum FollowerError: Error, CustomStringConvertible {
    case socketsClosed(String)
    case duplicateRoutes(String, [MessageType])

    var description: String {
        switch self {
        case .socketsClosed(let service): "\(service) lost its sockets and stops so that its supervisor restarts it"
        case .duplicateRoutes(let service, let types): "\(service)'s route table adds \(types.map(\.rawValue).joined(separator: ", ")) more than once"
        }
    }
}
