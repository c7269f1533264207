import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP server on a loopback port that records every request and answers from a script:
/// the scripted replies first, in order, then `fallback` for every further request.
final class WebhookReceiver: Sendable {
    enum Reply: Sendable {
        case status(Int, headers: [String: String] = [:])
        /// Reads the request and never answers.
        case hang
    }

    struct Request: Sendable {
        let method: String
        let uri: String
        /// Header names lowercased.
        let headers: [String: String]
        let body: Data
        let receivedAt: Date
    }

    final class Recorder: Sendable {
        private struct State {
            var replies: [Reply]
            var fallback: Reply
            var requests: [Request] = []
        }

        private let state: Mutex<State>

        init(replies: [Reply], fallback: Reply) { state = Mutex(State(replies: replies, fallback: fallback)) }

        func record(_ request: Request) -> Reply {
            state.withLock { state in
                state.requests.append(request)
                return state.replies.isEmpty ? state.fallback : state.replies.removeFirst()
            }
        }

        var requests: [Request] { state.withLock { $0.requests } }
    }

    let port: Int
    private let recorder: Recorder
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Listens on `port` (0: any free port) of 127.0.0.1.
    init(port: Int = 0, replies: [Reply] = [], fallback: Reply = .status(200)) async throws {
        let recorder = Recorder(replies: replies, fallback: fallback)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(recorder: recorder))
                }
            }
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        self.port = channel.localAddress?.port ?? port
        self.recorder = recorder
        self.group = group
    }

    var url: String { "http://127.0.0.1:\(port)/hooks/ledgerly" }

    var requests: [Request] { recorder.requests }

    /// Waits until at least `count` requests arrived (or the timeout passed); returns them all.
    func waitForRequests(_ count: Int, timeout: Duration = .seconds(30)) async -> [Request] {
        let deadline = ContinuousClock.now + timeout
        while recorder.requests.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return recorder.requests
    }

    /// Closes the listener and every connection (a hanging one included).
    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// A port nothing listens on (it was free a moment ago), for a receiver that is down.
    static func unusedPort() async throws -> Int {
        let probe = try await WebhookReceiver()
        await probe.stop()
        return probe.port
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let recorder: Recorder
        private var head: HTTPRequestHead?
        private var body = Data()

        init(recorder: Recorder) { self.recorder = recorder }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = Data()
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let head else { return }
                var headers: [String: String] = [:]
                for (name, value) in head.headers { headers[name.lowercased()] = value }
                let reply = recorder.record(Request(method: head.method.rawValue, uri: head.uri, headers: headers, body: body, receivedAt: Date()))
                guard case .status(let code, let extra) = reply else { return }
                var responseHeaders = HTTPHeaders()
                responseHeaders.add(name: "Content-Length", value: "0")
                for (name, value) in extra { responseHeaders.add(name: name, value: value) }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: code), headers: responseHeaders))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
