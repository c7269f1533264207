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
}
