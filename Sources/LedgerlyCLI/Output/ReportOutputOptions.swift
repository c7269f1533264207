import ArgumentParser

/// `--json` or `--csv` for reports: the protocol's reply body, or rows for a spreadsheet,
/// instead of a table with bars.
struct ReportOutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print JSON (the protocol's reply body) instead of a table.")
    var json = false

    @Flag(name: .long, help: "Print CSV instead of a table.")
    var csv = false

    func validate() throws {
        if json && csv { throw ValidationError("--json and --csv: choose one") }
    }
}
