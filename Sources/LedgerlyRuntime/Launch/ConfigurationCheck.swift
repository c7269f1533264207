import FoundationEssentials
import LedgerlyFiles
import Glibc

/// `--check-config` of a service: one line saying the file is good (or absent, which means the
/// defaults) and exit 0, or its problems and exit 1. `ledgerly config check` runs it for every
/// service that has a configuration file, so the file is read by the very code that will use it.
public enum ConfigurationCheck {
    public static func report(_ service: LedgerlyService, file: URL, problem: String?, note: String? = nil) -> Never {
        if let problem {
            let place = problem.contains(file.path) ? "" : "\(file.path): "
            try? PosixFile.standardError.write(Data("\(service.name): \(place)\(problem)\n".utf8))
            exit(1)
        }
        let state = (FileManager.default.fileExists(atPath: file.path) ? "good" : "absent (the defaults apply)") + (note.map { "; \($0)" } ?? "")
        try? PosixFile.standardOutput.write(Data("\(service.name): \(file.path): \(state)\n".utf8))
        exit(0)
    }

    /// `--check-config` of a service whose file `name` lives in the home's configuration folder
    /// (`file` of the home): an older version's file not moved there yet is checked where it is
    /// first, as the next start will move and read it, then the file where the service reads it.
    /// `problem` reads a home's file as the service does (`problem(reading:)`).
    public static func run(_ service: LedgerlyService, name: String, home: LedgerlyHome, file: (LedgerlyHome) -> URL,
                           problem: (LedgerlyHome) -> String?) -> Never {
        if let unmoved = home.unmovedConfiguration(name) {
            report(service, file: unmoved, problem: problem(LedgerlyHome(root: home.root)), note: "moved to \(home.configDirectory.path) at the next start")
        }
        report(service, file: file(home), problem: problem(home))
    }

    /// What is wrong with a configuration file, nil when it is good or absent: the error `load`
    /// (the service's own reader) throws, as text.
    public static func problem(reading load: () throws -> Void) -> String? {
        do {
            try load()
            return nil
        } catch {
            return "\(error)"
        }
    }
}
