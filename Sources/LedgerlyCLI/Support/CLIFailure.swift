/// A failure the CLI reports in one readable line, then exits with `status`.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let status: ExitStatus
    var hint: String?

    var description: String { message }
}
