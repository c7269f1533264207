import Foundation

/// A process's resident memory now and at its peak, from /proc/<pid>/status (VmRSS, VmHWM).
struct ProcessMemory {
    let residentMegabytes: Double
    let peakMegabytes: Double

    init(pid: Int32) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func kilobytes(_ field: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                  let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Double($0) })
            else { return 0 }
            return value
        }
        residentMegabytes = kilobytes("VmRSS") / 1_024
        peakMegabytes = kilobytes("VmHWM") / 1_024
    }
}

