import Foundation
import Testing
import ZeroMQ

@Suite struct SocketThreadTests {
    @Test func echoesThroughTheSocketThreadAndStopsCleanly() async throws {
        let context = try ZMQContext()
        let endpoint = "inproc://echo-\(UUID().uuidString)"
        let thread = try await ZMQSocketThread.start(name: "echo", context: context) { context in
            let router = try ZMQSocket(context: context, type: .router)
            try router.bind(endpoint)
            return [router]
        }
        let echo = Task {
            for await message in thread.inbound { thread.send(socket: 0, frames: message.frames) }
        }
        // The blocking client gets a thread of its own: blocking a Swift concurrency thread in
        // zmq_poll could starve the echo task (the pool has one thread per core).
        let echoed = try await Self.onOwnThread { () throws -> [Data?] in
            let client = try ZMQSocket(context: context, type: .dealer)
            try client.connect(endpoint)
            defer { client.close() }
            return try (0..<100).map { index in
                try client.send([Data(), Data("ping \(index)".utf8)])
                // Generous: the echo task runs on the shared pool, which other suites running
                // at the same time can keep busy for seconds on a loaded 2-core machine.
                guard try client.waitForInput(timeoutMilliseconds: 60_000) else { return nil }
                return try client.receive()?.last
            }
        }
        #expect(echoed == (0..<100).map { Data("ping \($0)".utf8) })
        await thread.stop()
        await echo.value
    }

    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test func aBindFailureIsThrownToTheCaller() async throws {
        let context = try ZMQContext()
        await #expect(throws: ZMQError.self) {
            _ = try await ZMQSocketThread.start(name: "bad", context: context) { context in
                let socket = try ZMQSocket(context: context, type: .router)
                try socket.bind("ipc:///nonexistent-dir/x/y.sock")
                return [socket]
            }
        }
    }

    @Test func receiveWithoutWaitingReportsWouldBlockAsNil() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context: context, type: .pull)
        try socket.bind("inproc://empty-\(UUID().uuidString)")
        #expect(try socket.receive(dontWait: true) == nil)
        #expect(try socket.waitForInput(timeoutMilliseconds: 10) == false)
    }

    @Test func errorsNameTheFunctionAndReason() {
        let error = ZMQError(function: "zmq_bind", code: EADDRINUSE)
        #expect(error.description.contains("zmq_bind failed"))
        #expect(error.description.contains("in use"))
    }
}
