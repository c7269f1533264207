import AsyncHTTPClient
import Foundation
import LedgerlyRuntime
import NIOCore
import NIOHTTP1

/// Downloads one provider document over HTTP(S), with a timeout and a size limit; anything but
/// a 2xx answer is an error that says what the provider answered.
struct ProviderFetcher: Sendable {
    /// What a provider asked for before the next request (HTTP 429 `Retry-After`), if anything.
    static func retryAfter(_ error: FetchError) -> Int? {
        if case .rateLimited(let seconds) = error { return seconds }
        return nil
    }

    static let maximumBytes = 32 << 20

    let client: HTTPClient

    func fetch(_ url: String, for provider: RatesConfiguration.Provider) async throws(FetchError) -> Data {
        try await fetch(url, headers: provider.headers ?? [:], timeoutSeconds: provider.timeoutSeconds ?? 10)
    }

    func fetch(_ url: String, headers: [String: String], timeoutSeconds: Int) async throws(FetchError) -> Data {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: LedgerlyService.rates.name)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let timeout = TimeAmount.seconds(Int64(timeoutSeconds))
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBytes)
            if response.status.code == 429 {
                throw FetchError.rateLimited(retryAfterSeconds: response.headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
            }
            guard (200..<300).contains(response.status.code) else {
                throw FetchError.status(Int(response.status.code), response.status.reasonPhrase)
            }
            return Data(body.readableBytesView)
        } catch let error as FetchError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timedOut(timeoutSeconds)
        } catch {
            throw .transport("\(error)")
        }
    }
}

/// Why a download failed. Each case reads as a sentence in a log or in `ledgerly rates refresh`.
enum FetchError: Error, CustomStringConvertible {
    case status(Int, String)
    /// HTTP 429, with the provider's `Retry-After` in seconds when it sent one.
    case rateLimited(retryAfterSeconds: Int?)
    case timedOut(Int)
    case transport(String)

    var description: String {
        switch self {
        case .rateLimited(let seconds?): "HTTP 429: the provider's rate limit was reached; it asked for \(seconds) s before the next request"
        case .rateLimited(nil), .status(429, _): "HTTP 429: the provider's rate limit was reached; will retry later"
        case .status(let code, let reason): "HTTP \(code) \(reason)"
        case .timedOut(let seconds): "no answer within \(seconds) s"
        case .transport(let reason): "could not connect: \(reason)"
        }
    }
}
