import NIOCore
import NIOSSL
import Synchronization

/// What the hub asked for during one connection's start-up, as `HubAuthenticationGuard` saw it.
/// Shared between the guard (on the event loop) and `HubClient` (which reads it after connecting).
final class HubAuthenticationRecord: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Start-up not finished.
        case pending
        /// The server accepted the client: by SCRAM-SHA-256 (`scram`), or without asking anything.
        case authenticated(scram: Bool)
        /// The server asked for a cleartext (`"a cleartext password"`) or MD5 password; the
        /// connection was closed before postgres-nio saw the request.
        case refused(method: String)
        /// The server's SCRAM challenge asked for fewer than `HubAuthenticationGuard.minimumSCRAMIterations`
        /// iterations; the connection was closed before the client's proof went out (D491).
        case weakSCRAM(iterations: UInt32)
        /// The server declared an authentication message (R) longer than
        /// `HubAuthenticationGuard.maximumAuthenticationMessageLength`; the connection was closed
        /// before any of it was kept (D530).
        case oversized(declaredLength: Int)
    }

    private let state = Mutex<(outcome: Outcome, sawSASL: Bool)>((.pending, false))

    var outcome: Outcome { state.withLock { $0.outcome } }

    func sawSASL() { state.withLock { $0.sawSASL = true } }
    func authenticated() { state.withLock { $0.outcome = .authenticated(scram: $0.sawSASL) } }
    func refused(_ method: String) { state.withLock { $0.outcome = .refused(method: method) } }
    func weakSCRAM(_ iterations: UInt32) { state.withLock { $0.outcome = .weakSCRAM(iterations: iterations) } }
    func oversized(_ length: Int) { state.withLock { $0.outcome = .oversized(declaredLength: length) } }
}

/// Keeps the hub password from going out in a form the server (or whoever answers at its address)
/// can read or replay: it watches the server's start-up messages and closes the connection when an
/// `AuthenticationCleartextPassword` (R, code 3) or `AuthenticationMD5Password` (R, code 5)
/// arrives, before postgres-nio sees it (D432).
///
/// Needed because postgres-nio 1.33 answers whatever the server asks: its authentication state
/// machine sends the password for codes 3 and 5 and has no option to refuse them. The guard sits in
/// the channel pipeline in front of postgres-nio's handler, on a channel Ledgerly opens itself and
/// hands over with `Configuration(establishedChannel:tls:…)`.
///
/// With TLS, the first thing the server sends is the one-byte answer to postgres-nio's SSLRequest;
/// postgres-nio then adds the `NIOSSLClientHandler` while handling that byte. The guard forwards the
/// byte, then puts a second guard right after the TLS handler (where the bytes are plaintext) and
/// leaves. Once the server says `AuthenticationOk` the guard removes itself, so a connection's
/// queries pass through no extra handler.
///
/// It also reads the SCRAM challenge (`AuthenticationSASLContinue`, R code 11: `r=…,s=…,i=N`) and
/// closes the connection when N is below `minimumSCRAMIterations`: a proof made with one
/// iteration is a salted hash an eavesdropper (on `sslmode=disable`) or a fake server can test
/// password guesses against at full speed. postgres-nio 1.33 accepts any count and exposes no
/// setting for it (D491).
///
/// Every authentication message (R) is capped at `maximumAuthenticationMessageLength` bytes as
/// declared in its header: the guard keeps a SCRAM challenge's body to read its count, and would
/// otherwise keep whatever length a server (or whoever answers at its address) declares, up to
/// 4 GiB, before any password check (D530).
final class HubAuthenticationGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// PostgreSQL's own default (`scram_iterations`); below it the proof is cheap to attack (D491).
    static let minimumSCRAMIterations: UInt32 = 4096

    /// The longest authentication message (R, its length field included) the guard lets through.
    /// PostgreSQL's SCRAM-SHA-256 messages are about 100 bytes (the mechanism list, a challenge
    /// of two nonces, a salt and a count, the server's signature); 1,024 leaves room for longer
    /// nonces and salts and refuses what is plainly not one (D530).
    static let maximumAuthenticationMessageLength = 1024

    private let record: HubAuthenticationRecord
    private var awaitingSSLAnswer: Bool
    /// The bytes of the current message's header seen so far: type, length, and for `R` its code.
    private var header: [UInt8] = []
    /// Bytes of the current message's body still to pass.
    private var skip = 0
    /// The body of a SCRAM challenge (R code 11) while it is read, to check its iteration count.
    private var challenge: [UInt8]?

    init(record: HubAuthenticationRecord, awaitingSSLAnswer: Bool) {
        self.record = record
        self.awaitingSSLAnswer = awaitingSSLAnswer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if awaitingSSLAnswer {
            awaitingSSLAnswer = false
            context.fireChannelRead(data)
            let operations = context.pipeline.syncOperations
            if let tls = try? operations.handler(type: NIOSSLClientHandler.self) {
                do {
                    try operations.addHandler(HubAuthenticationGuard(record: record, awaitingSSLAnswer: false), position: .after(tls))
                    operations.removeHandler(context: context, promise: nil)
                } catch {
                    context.close(promise: nil)
                }
            }
            return
        }
        let buffer = unwrapInboundIn(data)
        let view = buffer.readableBytesView
        var index = view.startIndex
        while index < view.endIndex {
            if skip > 0 {
                let step = min(skip, view.endIndex - index)
                challenge?.append(contentsOf: view[index..<(index + step)])
                skip -= step
                index += step
                if skip == 0, let body = challenge {
                    challenge = nil
                    if let iterations = Self.iterations(inChallenge: body), iterations < Self.minimumSCRAMIterations {
                        // Neither the challenge nor anything after it reaches postgres-nio: no proof goes out.
                        record.weakSCRAM(iterations)
                        context.close(promise: nil)
                        return
                    }
                }
                continue
            }
            header.append(view[index])
            index += 1
            guard header.count >= 5 else { continue }
            let length = Int(header[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            if header[0] != UInt8(ascii: "R") {
                skip = max(0, length - 4)
                header.removeAll(keepingCapacity: true)
                continue
            }
            if length > Self.maximumAuthenticationMessageLength {
                // Refused on the header alone: nothing of it is kept or reaches postgres-nio.
                record.oversized(length)
                context.close(promise: nil)
                return
            }
            guard header.count == 9 else { continue }
            let code = header[5...8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            skip = max(0, length - 8)
            header.removeAll(keepingCapacity: true)
            switch code {
            case 3, 5:
                // Neither this message nor anything after it reaches postgres-nio.
                record.refused(code == 3 ? "a cleartext password" : "an MD5 hash of the password")
                context.close(promise: nil)
                return
            case 10:
                record.sawSASL()
            case 11:
                challenge = skip > 0 ? [] : nil
            case 0:
                record.authenticated()
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            default:
                break
            }
        }
        context.fireChannelRead(data)
    }

    /// The `i=` attribute of a SCRAM server-first-message (RFC 5802: `r=…,s=…,i=…`); nil when it
    /// has none or it is not a number (postgres-nio then refuses the message itself).
    static func iterations(inChallenge body: [UInt8]) -> UInt32? {
        for attribute in String(decoding: body, as: UTF8.self).split(separator: ",") where attribute.hasPrefix("i=") {
            return UInt32(attribute.dropFirst(2))
        }
        return nil
    }
}
