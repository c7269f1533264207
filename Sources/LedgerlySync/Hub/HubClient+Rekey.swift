import Foundation
import PostgresNIO

/// The hub's side of `sync rekey` and `sync devices` (D480, D483).
extension HubClient {
    /// Makes `successor` and retires `retired` in favour of it, in one transaction: a rekey cut
    /// short leaves the hub as it was or with both (D482). `HubError.alreadyRetired` when the
    /// old ledger was retired already (a second rekey, or another device's), nothing written.
    public func createSuccessor(_ successor: HubLedger, retiring retired: UUID, retiredDevices: [UUID], sealed: Data) async throws(HubError) {
        let salt = Data(successor.kdf.salt)
        try await run(ledger: retired) { connection, logger in
            try await Self.transaction(connection, logger) {
                // The old ledger's push lock: a push in flight commits before or after, never across.
                try await connection.query("SELECT pg_advisory_xact_lock(\(HubSchema.lockNamespace), hashtext(\(retired.uuidString.lowercased())))", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO ledgerly_ledgers (ledger_id, kdf, kdf_salt, kdf_n, kdf_r, kdf_p, key_check)
                    VALUES (\(successor.id), \(successor.kdf.algorithm), \(salt), \(Int32(successor.kdf.n)), \(Int32(successor.kdf.r)), \(Int32(successor.kdf.p)), \(successor.keyCheck))
                    """,
                    logger: logger)
                let rows = try await connection.query(
                    """
                    INSERT INTO ledgerly_retirements (ledger_id, successor_id, retired_devices, sealed)
                    VALUES (\(retired), \(successor.id), \(retiredDevices)::uuid[], \(sealed))
                    ON CONFLICT (ledger_id) DO NOTHING RETURNING ledger_id
                    """,
                    logger: logger)
                var count = 0
                for try await _ in rows { count += 1 }
                // Nothing of this rekey stays when the old ledger was retired already.
                if count == 0 { throw HubError.alreadyRetired(retired) }
            }
        }
    }

    /// Every retirement on the hub (few: one per rekey).
    public func retirements() async throws(HubError) -> [HubRetirement] {
        try await run { connection, logger in
            let rows = try await connection.query(
                "SELECT ledger_id, successor_id, retired_devices, sealed, retired_at FROM ledgerly_retirements ORDER BY retired_at, ledger_id",
                logger: logger)
            var found: [HubRetirement] = []
            for try await (ledger, successor, devices, sealed, at) in rows.decode((UUID, UUID, [UUID], Data, Date).self) {
                found.append(HubRetirement(ledgerId: ledger, successorId: successor, retiredDevices: devices, sealed: sealed, retiredAt: at))
            }
            return found
        }
    }

    /// The retirement of one ledger, or nil: asked at every round (one indexed read).
    public func retirement(of ledgerId: UUID) async throws(HubError) -> HubRetirement? {
        try await run { connection, logger in
            let rows = try await connection.query(
                "SELECT ledger_id, successor_id, retired_devices, sealed, retired_at FROM ledgerly_retirements WHERE ledger_id = \(ledgerId)",
                logger: logger)
            var found: HubRetirement?
            for try await (ledger, successor, devices, sealed, at) in rows.decode((UUID, UUID, [UUID], Data, Date).self) {
                found = HubRetirement(ledgerId: ledger, successorId: successor, retiredDevices: devices, sealed: sealed, retiredAt: at)
            }
            return found
        }
    }

    /// Notes that `deviceId` was in touch with `ledgerId` now (the hub's clock) and has read
    /// through `pulledSeq`: one upsert a round, for `sync devices`.
    public func recordContact(ledgerId: UUID, deviceId: UUID, pulledSeq: Int64) async throws(HubError) {
        _ = try await run(ledger: ledgerId) { connection, logger in
            try await connection.query(
                """
                INSERT INTO ledgerly_devices (ledger_id, device_id, pulled_seq) VALUES (\(ledgerId), \(deviceId), \(pulledSeq))
                ON CONFLICT (ledger_id, device_id) DO UPDATE SET last_contact = now(), pulled_seq = GREATEST(ledgerly_devices.pulled_seq, excluded.pulled_seq)
                """,
                logger: logger)
        }
    }

    /// The devices of these ledgers: those with a contact row, and those that only sent messages
    /// (before the hub kept contacts), with the last hub position each sent.
    public func devices(ledgerIds: [UUID]) async throws(HubError) -> [HubDevice] {
        try await run { connection, logger in
            let rows = try await connection.query(
                """
                WITH sent AS (
                    SELECT ledger_id, device_id, max(seq) AS last_seq FROM ledgerly_messages
                    WHERE ledger_id = ANY(\(ledgerIds)::uuid[]) GROUP BY ledger_id, device_id
                ), seen AS (
                    SELECT ledger_id, device_id, first_contact, last_contact, pulled_seq FROM ledgerly_devices
                    WHERE ledger_id = ANY(\(ledgerIds)::uuid[])
                )
                SELECT coalesce(seen.ledger_id, sent.ledger_id), coalesce(seen.device_id, sent.device_id),
                       seen.first_contact, seen.last_contact, seen.pulled_seq, sent.last_seq
                FROM seen FULL OUTER JOIN sent ON seen.ledger_id = sent.ledger_id AND seen.device_id = sent.device_id
                ORDER BY 1, 2
                """,
                logger: logger)
            var found: [HubDevice] = []
            for try await (ledger, device, first, last, pulled, sent) in rows.decode((UUID, UUID, Date?, Date?, Int64?, Int64?).self) {
                found.append(HubDevice(ledgerId: ledger, deviceId: device, firstContact: first, lastContact: last, pulledSeq: pulled, lastSentSeq: sent))
            }
            return found
        }
    }
}
