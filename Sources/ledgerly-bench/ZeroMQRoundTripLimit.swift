import Foundation
import ZeroMQ

/// A limit of the machine for every round trip: a bare ZeroMQ REQ/REP exchange over `ipc://`
/// between two threads of this process, the REP side echoing a small JSON request back. No
/// service, no decoding, no database: what the socket and two thread wake-ups cost, the floor
/// under `report.balance` and every other round trip (docs/measured-limits.md gives the same
/// exchange measured in C and Python on this machine kind).
struct ZeroMQRoundTripLimit {
    let folder: URL
    let roundTrips: Int
    /// Untimed exchanges first, so connecting and the first allocations are not in the figure.
    let warmUp = 200

    /// About the size of a report request as the CLI sends it.
    static let payload = Data(#"{"v":1,"id":"0f3c2a9e-5d71-4c8e-9a43-2b6f8e1d7c55","type":"report.balance","body":{"includeArchived":false},"deadline":"2026-11-24T10:00:05.000Z"}"#.utf8)

    /// The median round trip.
    func run() throws -> Duration {
        let endpoint = "ipc://" + folder.appendingPathComponent("zmq-limit.ipc").path
        let context = try ZMQContext()
        let total = warmUp + roundTrips
        let bound = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // The echo side owns its socket on its own thread (a ZMQSocket is used from one thread).
        Thread {
            defer { done.signal() }
            guard let socket = try? ZMQSocket(context: context, type: .rep), (try? socket.bind(endpoint)) != nil else {
                bound.signal()
                return
            }
            defer { socket.close() }
            bound.signal()
            for _ in 0..<total {
                guard socket.waitForInputOrFalse(), let request = try? socket.receive(), (try? socket.send(request)) != nil else { return }
            }
        }.start()
        bound.wait()
        let socket = try ZMQSocket(context: context, type: .req)
        defer { socket.close() }
        try socket.connect(endpoint)
        var times: [Duration] = []
        times.reserveCapacity(roundTrips)
        for index in 0..<total {
            let started = ContinuousClock.now
            try socket.send([Self.payload])
            guard try socket.waitForInput(timeoutMilliseconds: 5_000), let reply = try socket.receive(), reply.first == Self.payload else {
                throw BenchmarkError.mismatch("the ZeroMQ echo did not answer with the request")
            }
            if index >= warmUp { times.append(ContinuousClock.now - started) }
        }
        done.wait()
        return times.sorted()[times.count / 2]
    }
}

private extension ZMQSocket {
    /// Waits up to 5 s for the next request: a lost echo thread ends the run instead of hanging it.
    func waitForInputOrFalse() -> Bool { (try? waitForInput(timeoutMilliseconds: 5_000)) ?? false }
}
