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
        let client = try ZMQSocket(context: context, type: .dealer)
        try client.connect(endpoint)
        for index in 0..<100 {
            try client.send([Data(), Data("ping \(index)".utf8)])
            #expect(try client.waitForInput(timeoutMilliseconds: 2_000))
            #expect(try client.receive()?.last == Data("ping \(index)".utf8))
        }
        client.close()
        await thread.stop()
        await echo.value
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
