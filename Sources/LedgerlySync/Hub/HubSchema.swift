/// The hub's tables and the advisory locks around them. The hub stores ciphertext, ledger and
/// device ids, clocks and order, nothing else (docs/sync-hub.md).
enum HubSchema {
    /// First key of every advisory lock Ledgerly takes ("LDGR"), so its locks do not collide with
    /// another application's on the same database.
    static let lockNamespace: Int32 = 0x4C44_4752
    /// Second key of the schema lock. Push locks use `hashtext(ledger_id::text)` as the second key;
    /// should one equal this, schema creation and that ledger's pushes merely wait for each other.
    static let schemaLockKey: Int32 = 0

    /// Run in one transaction after `pg_advisory_xact_lock(namespace, schemaLockKey)`: two devices
    /// creating the schema at once otherwise race in the catalog (`CREATE TABLE IF NOT EXISTS` is
    /// not safe against a concurrent create: one of them fails on pg_type's unique index).
    static let statements: [String] = [
        """
        CREATE TABLE IF NOT EXISTS ledgerly_ledgers (
            ledger_id uuid PRIMARY KEY,
            kdf text NOT NULL,
            kdf_salt bytea NOT NULL,
            kdf_n int NOT NULL,
            kdf_r int NOT NULL,
            kdf_p int NOT NULL,
            key_check bytea NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS ledgerly_messages (
            ledger_id uuid NOT NULL REFERENCES ledgerly_ledgers,
            seq bigserial NOT NULL,
            device_id uuid NOT NULL,
            hlc text NOT NULL,
            sealed bytea NOT NULL,
            PRIMARY KEY (ledger_id, seq),
            UNIQUE (ledger_id, device_id, hlc)
        )
        """,
        // D480: a ledger retired by `sync rekey`, the one that follows it, and the record sealed
        // with the retired ledger's key that a device holding that key verifies. Added by
        // `CREATE … IF NOT EXISTS`, so an older hub gains it on the next connection.
        """
        CREATE TABLE IF NOT EXISTS ledgerly_retirements (
            ledger_id uuid PRIMARY KEY REFERENCES ledgerly_ledgers,
            successor_id uuid NOT NULL REFERENCES ledgerly_ledgers,
            retired_devices uuid[] NOT NULL DEFAULT '{}',
            sealed bytea NOT NULL,
            retired_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        // D483: each device's first and last contact with a ledger and how far it has read, for
        // `sync devices` (the hub's clock; what the hub says, not verified).
        """
        CREATE TABLE IF NOT EXISTS ledgerly_devices (
            ledger_id uuid NOT NULL REFERENCES ledgerly_ledgers,
            device_id uuid NOT NULL,
            first_contact timestamptz NOT NULL DEFAULT now(),
            last_contact timestamptz NOT NULL DEFAULT now(),
            pulled_seq bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (ledger_id, device_id)
        )
        """,
    ]
}
