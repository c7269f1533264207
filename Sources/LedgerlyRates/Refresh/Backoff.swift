/// How long to leave a failing provider alone: `initialSeconds` after the first failure,
/// doubling with each failure in a row up to `maximumSeconds`, and never sooner than the
/// provider asked for (HTTP 429 `Retry-After`). Doubling keeps a broken or rate-limited
/// provider from being hammered; the cap keeps a recovered one from being ignored for long.
struct Backoff: Sendable, Hashable {
    let initialSeconds: Int
    let maximumSeconds: Int

    func delaySeconds(afterFailures failures: Int, retryAfter: Int? = nil) -> Int {
        let exponent = min(max(failures - 1, 0), 30)
        let (product, overflowed) = initialSeconds.multipliedReportingOverflow(by: 1 << exponent)
        let doubled = overflowed ? maximumSeconds : min(product, maximumSeconds)
        return max(doubled, min(retryAfter ?? 0, 86_400))
    }
}
