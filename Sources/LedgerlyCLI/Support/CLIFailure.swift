import LedgerlyProtocol

/// A failure the CLI reports in one readable line, then exits with `status`.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let status: ExitStatus
    var hint: String?
    /// The service's error code when the service refused the request.
    var code: ErrorCode?

    var description: String { message }
}
