import Foundation
import Synchronization
import ZeroMQ

/// Counts change events (not heartbeats) on the store's PUB socket from a thread of its own,
/// to show that every write was also published.
final class EventCounter: Sendable {
    private let count = Mutex(0)
    private let running = Mutex(true)

    init(context: ZMQContext, endpoint: String) throws {
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<ZMQError?>(nil)
        Thread { [self] in
            let socket: ZMQSocket
            do throws(ZMQError) {
                socket = try ZMQSocket(context: context, type: .sub)
                try socket.subscribe("")
                try socket.setHighWaterMarks(send: 1_000, receive: 1_000_000)
                try socket.connect(endpoint)
            } catch {
                failure.withLock { $0 = error }
                ready.signal()
                return
            }
            ready.signal()
            while running.withLock({ $0 }) {
                guard (try? socket.waitForInput(timeoutMilliseconds: 100)) == true else { continue }
                while let frames = try? socket.receive(dontWait: true) {
                    if frames.first != Data("heartbeat".utf8) { count.withLock { $0 += 1 } }
                }
            }
            socket.close()
        }.start()
        ready.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        // Let the subscription reach the publisher before the first write (slow-joiner).
        Thread.sleep(forTimeInterval: 0.2)
    }

    /// Waits until `expected` events arrived or `seconds` passed; returns the count.
    func waitFor(_ expected: Int, seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, count.withLock({ $0 }) < expected { Thread.sleep(forTimeInterval: 0.05) }
        running.withLock { $0 = false }
        return count.withLock { $0 }
    }
}
