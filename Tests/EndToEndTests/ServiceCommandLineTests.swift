import Foundation
import LedgerlyRuntime
import LedgerlyTesting
import Testing

extension EndToEndTests {
    /// The service executables' own command line (`ServiceOptions`): what supervisor, systemd and
    /// `ledgerly restore` rely on. A bad argument is exit 64 naming the option, so supervisor gives
    /// up on it instead of restarting the service in a loop.
    @Suite struct ServiceCommandLineTests {
        struct Outcome {
            let status: Int32
            let stdout: String
            let stderr: String
        }

        static func run(_ service: LedgerlyService, _ arguments: String...) throws -> Outcome {
            try run(service, arguments: arguments)
        }

        @Test(arguments: LedgerlyService.allCases)
        func versionPrintsTheServiceAndItsVersion(_ service: LedgerlyService) throws {
            let outcome = try Self.run(service, "--version")
            #expect(outcome.status == 0)
            #expect(outcome.stdout == "\(service.name) \(LedgerlyVersion.current)\n")
        }

        @Test(arguments: LedgerlyService.allCases)
        func helpListsTheCommonOptions(_ service: LedgerlyService) throws {
            let outcome = try Self.run(service, "--help")
            #expect(outcome.status == 0)
            for text in ["--home", "--clock-offset", "--version", "SIGTERM or SIGINT shuts down gracefully"] {
                #expect(outcome.stdout.contains(text), "\(text) missing from \(outcome.stdout)")
            }
        }

        @Test func theStoresHelpListsItsOwnOptions() throws {
            let outcome = try Self.run(.store, "--help")
            #expect(outcome.stdout.contains("owns the Ledgerly database"))
            #expect(outcome.stdout.contains("--durability"))
            #expect(outcome.stdout.contains("--restore"))
        }

        @Test(arguments: [["--clock-offset", "soon"], ["--clock-offset", "99999999999"], ["--clock-offset"]])
        func aBadClockOffsetExits64NamingTheOption(_ arguments: [String]) throws {
            for service in LedgerlyService.allCases {
                let process = try Self.run(service, arguments: arguments)
                #expect(process.status == 64, "\(service.name) \(arguments): \(process.stderr)")
                #expect(process.stderr.contains("--clock-offset"), "\(process.stderr)")
            }
        }

        @Test func anUnknownArgumentOrABadDurabilityExits64() throws {
            let unknown = try Self.run(.alerts, "--bogus")
            #expect(unknown.status == 64)
            #expect(unknown.stderr.contains("--bogus"), "\(unknown.stderr)")
            let durability = try Self.run(.store, "--durability", "fast")
            #expect(durability.status == 64)
            #expect(durability.stderr.contains("--durability must be full or normal"), "\(durability.stderr)")
        }

        /// A negative offset is a value, not an option: rehearsing the past must stay possible.
        @Test func aNegativeClockOffsetIsAccepted() throws {
            let harness = try ServiceHarness()
            try harness.start(.store, extraArguments: ["--clock-offset", "-3600"])
            #expect(harness.status(.store) != nil)
        }

        /// Runs a service executable to its end (only for arguments that make it exit at once).
        static func run(_ service: LedgerlyService, arguments: [String]) throws -> Outcome {
            let process = Process()
            process.executableURL = ServiceHarness.binaryDirectory.appendingPathComponent(service.name)
            process.arguments = arguments
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
        }
    }
}
