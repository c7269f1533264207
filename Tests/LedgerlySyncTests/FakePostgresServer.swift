import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// Something that answers at a hub's address and is not an honest PostgreSQL: it answers the
/// SSLRequest (with TLS when given a certificate, else "N"), reads the start-up message, and asks
/// for the password in clear (`AuthenticationCleartextPassword`, R code 3) or as MD5 (code 5).
/// Every byte the client sends after that is kept, so a test can check the password never came.
/// With `.scram(iterations:)` it offers SCRAM-SHA-256, reads the client's first message and sends
/// a challenge with that iteration count; what the client sends after the challenge is kept.
/// With `.scramDeclaring(length:)` the challenge's header declares `length` bytes and only a few
/// kilobytes follow: a server that makes the client wait for (and keep) a huge message.
final class FakePostgresServer: Sendable {
    enum Request: Sendable, Equatable { case cleartext, md5, scram(iterations: Int), scramDeclaring(length: Int) }

    let port: Int
    private let channel: any Channel
    private let state = Mutex<(received: [UInt8], sawStartup: Bool, connections: Int)>(([], false, 0))

    /// Everything received after the start-up message, on every connection.
    var receivedAfterStartup: [UInt8] { state.withLock { $0.received } }
    var sawStartup: Bool { state.withLock { $0.sawStartup } }
    var connections: Int { state.withLock { $0.connections } }

    init(request: Request, tls: NIOSSLContext?) async throws {
        let box = Box()
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Handler(request: request, tls: tls, server: box.server!))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
        box.server = self
    }

    func close() async { try? await channel.close() }

    fileprivate func note(connection: Void) { state.withLock { $0.connections += 1 } }
    fileprivate func noteStartup() { state.withLock { $0.sawStartup = true } }
    fileprivate func note(_ bytes: [UInt8]) { state.withLock { $0.received += bytes } }

    /// Lets the child initializer reach the server made after `bind` returns.
    private final class Box: @unchecked Sendable { var server: FakePostgresServer? }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        enum Phase { case first, startup, scramOffered, asked }
        let request: Request
        let tls: NIOSSLContext?
        let server: FakePostgresServer
        var phase = Phase.first
        var pending: [UInt8] = []

        init(request: Request, tls: NIOSSLContext?, server: FakePostgresServer) {
            self.request = request
            self.tls = tls
            self.server = server
        }

        func channelActive(context: ChannelHandlerContext) {
            server.note(connection: ())
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            if phase == .asked { server.note(bytes); return }
            pending += bytes
            if phase == .scramOffered, case .scramDeclaring(let declared) = request {
                guard pending.count >= 5 else { return }
                let length = Int(pending[1..<5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                guard pending.count >= 1 + length else { return }
                pending.removeFirst(1 + length)
                let message = [UInt8(ascii: "R")] + withUnsafeBytes(of: UInt32(declared).bigEndian, Array.init) + [0, 0, 0, 11]
                    + Array(repeating: UInt8(ascii: "x"), count: 4096)
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: message)), promise: nil)
                phase = .asked
                if !pending.isEmpty { server.note(pending) }
                return
            }
            if phase == .scramOffered, case .scram(let iterations) = request {
                // SASLInitialResponse: 'p', length, mechanism\0, length, "n,,n=…,r=NONCE".
                guard pending.count >= 5 else { return }
                let length = Int(pending[1..<5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                guard pending.count >= 1 + length else { return }
                let text = String(decoding: pending[5..<(1 + length)], as: UTF8.self)
                let nonce = text.split(separator: ",").first { $0.hasPrefix("r=") }.map { String($0.dropFirst(2)) } ?? ""
                pending.removeFirst(1 + length)
                let challenge = Array("r=\(nonce)fakeservernonce,s=c2FsdHNhbHQ=,i=\(iterations)".utf8)
                let size = UInt32(8 + challenge.count)
                let message = [UInt8(ascii: "R")] + withUnsafeBytes(of: size.bigEndian, Array.init) + [0, 0, 0, 11] + challenge
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: message)), promise: nil)
                phase = .asked
                if !pending.isEmpty { server.note(pending) }
                return
            }
            while pending.count >= 8 {
                let length = Int(pending[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                guard pending.count >= length else { return }
                let code = pending[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                pending.removeFirst(length)
                if phase == .first, code == 80_877_103 {
                    // SSLRequest
                    if let tls {
                        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [UInt8(ascii: "S")])), promise: nil)
                        try? context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
                    } else {
                        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [UInt8(ascii: "N")])), promise: nil)
                    }
                    phase = .startup
                    continue
                }
                server.noteStartup()
                let ask: [UInt8] = switch request {
                case .cleartext: [UInt8(ascii: "R"), 0, 0, 0, 8, 0, 0, 0, 3]
                case .md5: [UInt8(ascii: "R"), 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4]
                case .scram, .scramDeclaring: [UInt8(ascii: "R"), 0, 0, 0, 23, 0, 0, 0, 10] + Array("SCRAM-SHA-256".utf8) + [0, 0]
                }
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: ask)), promise: nil)
                if request != .cleartext, request != .md5 {
                    phase = .scramOffered
                    continue
                }
                phase = .asked
                if !pending.isEmpty { server.note(pending) }
                return
            }
        }
    }
}
