import GRDB

/// Makes `rates` again with a `revision` column in its unique key (D402): a source that changes
/// its value for a moment already stored adds the moment's next revision instead of being
/// dropped. Existing rows are revision 0 and keep their ids (conversions and sync refer to them).
/// Runs inside a migration, where GRDB has foreign keys off and checks them at the end.
enum RateCorrectionsMigration {
    static func run(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE rates_rebuilt (
                id INTEGER PRIMARY KEY,
                profile_id INTEGER NOT NULL REFERENCES rate_profiles(id),
                base TEXT NOT NULL,
                quote TEXT NOT NULL,
                rate TEXT NOT NULL,
                inverse_rate TEXT NOT NULL,
                source TEXT NOT NULL,
                as_of TEXT NOT NULL,
                confidence TEXT NOT NULL CHECK (confidence IN ('manual', 'fetched')),
                custom_override INTEGER NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL,
                confirmed_at TEXT,
                override_ended_at TEXT,
                revision INTEGER NOT NULL DEFAULT 0,
                UNIQUE (profile_id, base, quote, as_of, source, revision)
            );
            INSERT INTO rates_rebuilt (id, profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at, confirmed_at, override_ended_at)
                SELECT id, profile_id, base, quote, rate, inverse_rate, source, as_of, confidence, custom_override, created_at, confirmed_at, override_ended_at FROM rates;
            DROP TABLE rates;
            ALTER TABLE rates_rebuilt RENAME TO rates;
            CREATE INDEX rates_in_force ON rates(profile_id, base, quote, custom_override, as_of);
            CREATE INDEX rates_typed ON rates(profile_id, id) WHERE source = 'manual';
            """)
    }
}
