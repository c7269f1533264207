import AsyncHTTPClient
import Crypto
import Foundation
import LedgerlyProtocol
import LedgerlyRuntime
import Logging
import NIOCore
import NIOHTTP1

/// Sends an alert to an HTTP endpoint, signed so the receiver can tell it came from this
/// Ledgerly and was not altered or replayed.
///
/// The request:
///
/// ```
/// POST <url>
/// Content-Type: application/json
/// User-Agent: ledgerly-alerts/<version>
/// X-Ledgerly-Alert-Key: <alert key>
/// Signature: t=<unix seconds>,v1=<hex HMAC-SHA256, or HMAC-SHA3-256>
///
/// <the alert: the protocol's AlertRecord as JSON (MessageCoding: sorted keys)>
/// ```
///
/// The signature scheme (the layout Firefly III and Stripe use for their webhooks):
///
/// - `t` is the time the request was sent, in whole seconds since 1970-01-01T00:00:00Z, in
///   decimal; every attempt is signed afresh, so a retry carries a new `t`.
/// - `v1` is HMAC-SHA256 (or HMAC-SHA3-256 with `"signature": "hmac-sha3-256"`, as Firefly III
///   signs), keyed with the UTF-8 bytes of the webhook's `secret`, over the bytes of `t` in
///   decimal, one `.` (0x2E), then the request body exactly as received (no re-encoding),
///   written as 64 lowercase hexadecimal digits.
///
/// To verify: split the header on `,` and each part on its first `=`; recompute
/// the HMAC(secret, "<t>.<raw body>"); compare with `v1` in constant time; reject the request
/// when they differ, and also when `t` is more than a few minutes away from the receiver's clock
/// (a replayed request). Receivers should expect an alert more than once (a retry after a lost
/// answer, a restart): `X-Ledgerly-Alert-Key` (the alert's unique key) is there to deduplicate.
///
/// Any 2xx answer is a delivery; anything else, a timeout or a connection failure is a failed
/// attempt, retried by `AlertDispatcher` (429 and 503 with `Retry-After` are honoured).
public struct WebhookSink: AlertSink {
    /// How one attempt ended.
    public enum Outcome: Hashable, Sendable {
        case delivered(status: Int)
        /// `retryAfterSeconds` is the receiver's `Retry-After` on a 429 or 503, when it sent one.
        case failed(reason: String, retryAfterSeconds: Double?)
        /// The task was cancelled mid-request (the service is stopping): not an attempt.
        case cancelled
    }

    public static let signatureHeader = "Signature"
    public static let alertKeyHeader = "X-Ledgerly-Alert-Key"
    public static let eventHeader = "X-Ledgerly-Event"
    public static let changeKeyHeader = "X-Ledgerly-Change-Key"

    public let webhook: AlertSinksConfiguration.Webhook
    private let client: HTTPClient
    private let logger: Logger

    public init(webhook: AlertSinksConfiguration.Webhook, client: HTTPClient = WebhookSink.client, logger: Logger) {
        self.webhook = webhook
        self.client = client
        self.logger = logger
    }

    public var name: String { webhook.name }

    /// One attempt, logged; no retry (`AlertDispatcher` is what retries).
    public func deliver(_ alert: AlertRecord) async {
        switch await attempt(alert) {
        case .delivered(let status):
            logger.info("alert delivered", metadata: ["webhook": "\(name)", "alert.id": "\(alert.id)", "status": "\(status)"])
        case .failed(let reason, _):
            logger.warning("alert webhook failed", metadata: ["webhook": "\(name)", "alert.id": "\(alert.id)", "error": "\(reason)"])
        case .cancelled:
            break
        }
    }

    /// POSTs the alert once, signed at `now`.
    public func attempt(_ alert: AlertRecord, now: Date = Date()) async -> Outcome {
        await attempt(.alert(alert), now: now)
    }

    /// POSTs the alert or change once, signed at `now`. A change carries `X-Ledgerly-Event` (its
    /// type) and `X-Ledgerly-Change-Key` (`<epoch>:<seq>`, to deduplicate) instead of the alert key.
    public func attempt(_ notice: SinkNotice, now: Date = Date()) async -> Outcome {
        let body: Data
        do { body = try notice.body() } catch {
            return .failed(reason: "could not encode the delivery: \(error)", retryAfterSeconds: nil)
        }
        let timestamp = Int64(now.timeIntervalSince1970.rounded(.down))
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "\(LedgerlyService.alerts.name)/\(LedgerlyVersion.current)")
        switch notice {
        case .alert(let alert):
            request.headers.add(name: Self.alertKeyHeader, value: alert.key)
        case .transaction(let change):
            request.headers.add(name: Self.eventHeader, value: change.type)
            request.headers.add(name: Self.changeKeyHeader, value: notice.key)
        }
        request.headers.add(name: Self.signatureHeader, value: Self.signature(body: body, secret: webhook.secret, timestamp: timestamp, algorithm: webhook.effectiveSignature))
        request.body = .bytes(ByteBuffer(bytes: body))

        let timeout = TimeAmount.milliseconds(Int64((webhook.effectiveTimeoutSeconds * 1_000).rounded()))
        do {
            let response = try await client.execute(request, timeout: timeout)
            // Read (a little of) the answer so the connection can be reused; its content is not used.
            _ = try? await response.body.collect(upTo: 64 << 10)
            let status = Int(response.status.code)
            if (200..<300).contains(status) { return .delivered(status: status) }
            var retryAfter: Double?
            if status == 429 || status == 503 {
                retryAfter = response.headers.first(name: "Retry-After").flatMap { Self.retryAfterSeconds($0, now: Date()) }
            }
            return .failed(reason: "HTTP \(status) \(response.status.reasonPhrase)", retryAfterSeconds: retryAfter)
        } catch {
            if Task.isCancelled { return .cancelled }
            if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
                return .failed(reason: "no answer within \(webhook.effectiveTimeoutSeconds) s", retryAfterSeconds: nil)
            }
            return .failed(reason: "\(error)", retryAfterSeconds: nil)
        }
    }

    /// The `Signature` header value: `t=<timestamp>,v1=<hex HMAC(secret, "<timestamp>.<body>")>`,
    /// the HMAC with SHA-256 or SHA3-256 as `algorithm` says.
    public static func signature(body: Data, secret: String, timestamp: Int64, algorithm: WebhookSignature = .hmacSHA256) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        let code: [UInt8]
        switch algorithm {
        case .hmacSHA256: code = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8))))
        case .hmacSHA3_256: code = SHA3_256.hmac(key: Array(secret.utf8), message: Array(message))
        }
        let digits = Array("0123456789abcdef")
        let hex = code.map { byte in String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]) }.joined()
        return "t=\(timestamp),v1=\(hex)"
    }

    /// The client webhooks are sent with: the shared one's event loops, but redirects are not
    /// followed. A redirect would repeat the signed alert to a place the user did not configure
    /// (an https receiver may even redirect to http, which AsyncHTTPClient follows), and a 302 to
    /// a POST turns it into a GET without the alert; so a 3xx is a failed attempt, retried and
    /// logged with its status, like any other.
    public static let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                          configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    /// `Retry-After` as seconds from now: delta-seconds (`120`) or an HTTP date.
    static func retryAfterSeconds(_ value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return Double(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
