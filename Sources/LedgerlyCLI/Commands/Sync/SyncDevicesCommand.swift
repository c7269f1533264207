import ArgumentParser
import LedgerlyProtocol

/// `ledgerly sync devices [--json]`: the devices the hub has seen (D483).
struct SyncDevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the devices the hub has seen in this ledger and the ledgers a rekey replaced, with their first and last contact.",
        discussion: """
            One line per device and ledger: the device's id (this device is marked *), the ledger it was seen in \
            (current, or retired by a rekey: a device seen only in a retired ledger has not re-joined), its first and \
            last contact by the hub's clock, the last hub position it read through and the last it sent, and \
            "retired" for a device named with `sync rekey --retire`. Contacts and positions are what the hub says: it \
            keeps them in clear, and a hostile hub could leave a device out or invent one. A retirement counts only as \
            its record sealed with the retired ledger's key says; one this device cannot open (it joined after that \
            rekey) is marked "(unverified)" and names no device retired. Asks the hub, so ledgerly-sync must be running.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try CommandRunner.run {
            let reply = try Gateway(global).callSync(SyncDevicesRequest(), patientMilliseconds: 30_000)
            if output.json { return try JSONOutput.print(reply) }
            var table = Table([.init("DEVICE"), .init("LEDGER"), .init("FIRST CONTACT"), .init("LAST CONTACT"), .init("READ", .right), .init("SENT", .right), .init("")])
            for device in reply.devices {
                table.add([device.deviceId + (device.thisDevice ? " *" : ""), "\(device.ledger)\(device.retirement == "unverified" ? " (unverified)" : "") \(device.ledgerId.prefix(8))",
                           device.firstContact ?? "-", device.lastContact ?? "-", device.pulledSeq.map(String.init) ?? "-",
                           device.lastSentSeq.map(String.init) ?? "-", device.retired ? "retired" : ""])
            }
            print(table.render(), terminator: "")
            if reply.devices.isEmpty { print("The hub has seen no device in ledger \(reply.ledgerId) yet.") }
        }
    }
}
