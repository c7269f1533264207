import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import ServiceLifecycle
import ZeroMQ

/// Tells open pages that the ledger changed (D515): subscribes to the store's change events and
/// heartbeats and publishes the newest seq whenever it moves on.
///
/// Not a `ChangeFollower`: pages keep no state to bring up to date, they read the store afresh,
/// so there is no cursor to persist and nothing to replay. A lost event is still noticed within a
/// second: the next heartbeat carries the store's last seq.
public final class StoreChangeWatch: Service {
    private let home: LedgerlyHome
    private let context: ZMQContext
    private let broadcaster: ChangeBroadcaster
    private let logger: Logger

    public init(home: LedgerlyHome, context: ZMQContext, broadcaster: ChangeBroadcaster, logger: Logger) {
        self.home = home
        self.context = context
        self.broadcaster = broadcaster
        self.logger = logger
    }

    public func run() async throws {
        let endpoint = home.storeEventsEndpoint
        let sockets = try await ZMQSocketThread.start(name: "web events", context: context, inboundLimit: 1_000, makeSockets: { context in
            let subscriber = try ZMQSocket(context: context, type: .sub)
            try subscriber.subscribe("")
            try subscriber.connect(endpoint)
            return [subscriber]
        })
        var tracker = SeqTracker()
        await withGracefulShutdownHandler {
            let decoder = MessageCoding.decoder()
            for await message in sockets.inbound {
                guard message.frames.count == 2 else { continue }
                let seen: (epoch: String, seq: Int64)?
                if String(decoding: message.frames[0], as: UTF8.self) == Heartbeat.topic {
                    seen = (try? decoder.decode(Heartbeat.self, from: message.frames[1])).map { ($0.epoch, $0.lastSeq) }
                } else {
                    seen = (try? decoder.decode(ChangeEvent.self, from: message.frames[1])).map { ($0.epoch, $0.seq) }
                }
                if let seen, tracker.moved(epoch: seen.epoch, seq: seen.seq) {
                    broadcaster.publish(seen.seq)
                }
            }
        } onGracefulShutdown: { [broadcaster] in
            broadcaster.finishAll()
            Task { await sockets.stop() }
        }
        await sockets.stop()
        broadcaster.finishAll()
    }
}

/// The newest (epoch, seq) heard; says whether a reading is news. The first reading only sets it
/// (pages were drawn after it), as does a reading from a replaced database, which is news.
struct SeqTracker: Sendable {
    private(set) var epoch: String?
    private(set) var seq: Int64 = 0

    mutating func moved(epoch: String, seq: Int64) -> Bool {
        guard let known = self.epoch else {
            self.epoch = epoch
            self.seq = seq
            return false
        }
        if known != epoch {
            self.epoch = epoch
            self.seq = seq
            return true
        }
        guard seq > self.seq else { return false }
        self.seq = seq
        return true
    }
}
