import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The CPU time a process has used so far, user and system, from /proc/<pid>/stat (fields 14 and
/// 15, in clock ticks). Load on a shared machine stretches wall time far more than CPU time, so a
/// before/after comparison of sync reads both.
struct ProcessCPUTime {
    let userSeconds: Double
    let systemSeconds: Double
    var totalSeconds: Double { userSeconds + systemSeconds }

    init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)" come state (field 3) … utime (14), stime (15).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        userSeconds = user / ticks
        systemSeconds = system / ticks
    }
}
