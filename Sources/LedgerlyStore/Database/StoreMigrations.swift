import Foundation
import GRDB
import LedgerlyProtocol

/// The database schema, as an ordered list of GRDB migrations. Never edit a shipped migration:
/// add a new one, so every existing database upgrades the same way.
enum StoreMigrations {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-foundation") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE settings (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    base_currency TEXT,
                    exchange_mode TEXT NOT NULL DEFAULT 'official',
                    price_refresh_minutes INTEGER NOT NULL DEFAULT 60,
                    cloud_sync INTEGER NOT NULL DEFAULT 0,
                    notify_budget INTEGER NOT NULL DEFAULT 1,
                    notify_goals INTEGER NOT NULL DEFAULT 1,
                    notify_rates INTEGER NOT NULL DEFAULT 1,
                    notify_recurring INTEGER NOT NULL DEFAULT 1,
                    onboarding_completed INTEGER NOT NULL DEFAULT 0,
                    onboarding_progress TEXT,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE wallets (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    icon TEXT,
                    currency TEXT NOT NULL,
                    type TEXT NOT NULL,
                    starting_balance_minor INTEGER NOT NULL,
                    balance_minor INTEGER NOT NULL,
                    institution TEXT,
                    sort_order INTEGER NOT NULL DEFAULT 0,
                    include_in_net_worth INTEGER NOT NULL DEFAULT 1,
                    archived INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE categories (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('income', 'expense')),
                    parent_id INTEGER REFERENCES categories(id),
                    icon TEXT,
                    color TEXT,
                    budgeting_enabled INTEGER NOT NULL DEFAULT 1,
                    sort_order INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE UNIQUE INDEX categories_unique_name ON categories(ifnull(parent_id, 0), name COLLATE NOCASE);
                CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE UNIQUE);
                CREATE TABLE transactions (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN ('income', 'expense')),
                    wallet_id INTEGER NOT NULL REFERENCES wallets(id),
                    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
                    currency TEXT NOT NULL,
                    wallet_amount_minor INTEGER NOT NULL,
                    base_amount_minor INTEGER,
                    category_id INTEGER REFERENCES categories(id),
                    notes TEXT,
                    date TEXT NOT NULL,
                    attachment_path TEXT,
                    counterparty_wallet_id INTEGER REFERENCES wallets(id),
                    counterparty_tx_id INTEGER,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE INDEX transactions_by_date ON transactions(date, id);
                CREATE INDEX transactions_by_wallet ON transactions(wallet_id, date);
                CREATE INDEX transactions_by_category ON transactions(category_id);
                CREATE TABLE transaction_tags (
                    tx_id INTEGER NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
                    tag_id INTEGER NOT NULL REFERENCES tags(id),
                    PRIMARY KEY (tx_id, tag_id)
                ) WITHOUT ROWID;
                CREATE INDEX transaction_tags_by_tag ON transaction_tags(tag_id);
                CREATE TABLE splits (
                    tx_id INTEGER NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
                    category_id INTEGER NOT NULL REFERENCES categories(id),
                    memo TEXT,
                    PRIMARY KEY (tx_id, position)
                ) WITHOUT ROWID;
                CREATE INDEX splits_by_category ON splits(category_id);
                CREATE TABLE change_log (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    ts TEXT NOT NULL,
                    type TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    data TEXT NOT NULL
                );
                CREATE TABLE idempotency (
                    key TEXT PRIMARY KEY,
                    request_type TEXT NOT NULL,
                    body_hash TEXT NOT NULL,
                    reply TEXT NOT NULL,
                    created_at TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('epoch', ?)", arguments: [UUID().uuidString.lowercased()])
            try db.execute(sql: "INSERT INTO settings (id, updated_at) VALUES (1, ?)", arguments: [Timestamp.now()])
        }
        migrator.registerMigration("v2-rates") { db in
            try db.execute(sql: """
                CREATE TABLE rate_profiles (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    type TEXT NOT NULL CHECK (type IN ('official', 'parallel', 'manual')),
                    primary_source TEXT,
                    notes TEXT,
                    is_default INTEGER NOT NULL DEFAULT 0,
                    last_updated TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE TABLE rates (
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
                    UNIQUE (profile_id, base, quote, as_of, source)
                );
                CREATE INDEX rates_in_force ON rates(profile_id, base, quote, custom_override, as_of);
                CREATE TABLE conversions (
                    id INTEGER PRIMARY KEY,
                    amount TEXT NOT NULL,
                    from_currency TEXT NOT NULL,
                    result TEXT NOT NULL,
                    to_currency TEXT NOT NULL,
                    snapshot TEXT NOT NULL,
                    warning TEXT,
                    created_at TEXT NOT NULL
                );
                ALTER TABLE transactions ADD COLUMN conversion TEXT;
                ALTER TABLE transactions ADD COLUMN base_conversion TEXT;
                """)
            let now = Timestamp.now()
            for (name, type, source, notes) in [
                ("official", "official", "ecb", "Reference rates from official feeds (the ECB)."),
                ("parallel", "parallel", "dropfolder", "Parallel-market rates from the drop folder or a parallel feed."),
                ("manual", "manual", "manual", "Rates you enter yourself."),
            ] {
                try db.execute(
                    sql: "INSERT INTO rate_profiles (name, type, primary_source, notes, is_default, created_at) VALUES (?, ?, ?, ?, 1, ?)",
                    arguments: [name, type, source, notes, now])
            }
        }
        migrator.registerMigration("v3-rate-freshness") { db in
            // confirmed_at: when a feed last re-delivered the rate (staleness counts from it);
            // override_ended_at: when a user's override stopped applying; rate_providers: each
            // provider's last reported health and backoff; a partial index finds the
            // transactions still waiting for a base amount without a table scan.
            try db.execute(sql: """
                ALTER TABLE settings ADD COLUMN stale_fiat_minutes INTEGER NOT NULL DEFAULT 60;
                ALTER TABLE settings ADD COLUMN stale_crypto_minutes INTEGER NOT NULL DEFAULT 15;
                ALTER TABLE rates ADD COLUMN confirmed_at TEXT;
                ALTER TABLE rates ADD COLUMN override_ended_at TEXT;
                CREATE TABLE rate_providers (
                    name TEXT PRIMARY KEY,
                    profile TEXT NOT NULL,
                    last_attempt_at TEXT NOT NULL,
                    last_success_at TEXT,
                    last_error TEXT,
                    consecutive_failures INTEGER NOT NULL,
                    next_attempt_at TEXT,
                    stored INTEGER NOT NULL,
                    confirmed INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX transactions_missing_base ON transactions(id) WHERE base_amount_minor IS NULL;
                """)
        }
        migrator.registerMigration("v4-budgets-alerts") { db in
            // One budget per category; thresholds as a JSON array of percentages. The alert log's
            // unique key is what makes every alert happen once, whatever restarts or races; ids
            // are never reused (AUTOINCREMENT), so a re-created budget or template cannot inherit
            // the keys of a deleted one.
            try db.execute(sql: """
                CREATE TABLE budgets (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    category_id INTEGER NOT NULL UNIQUE REFERENCES categories(id),
                    limit_minor INTEGER NOT NULL CHECK (limit_minor > 0),
                    currency TEXT NOT NULL,
                    thresholds TEXT NOT NULL,
                    carry_over INTEGER NOT NULL DEFAULT 0,
                    start_month TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE alerts (
                    id INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL,
                    key TEXT NOT NULL UNIQUE,
                    subject TEXT NOT NULL,
                    message TEXT NOT NULL,
                    period TEXT,
                    threshold INTEGER,
                    data TEXT,
                    raised_at TEXT NOT NULL
                );
                CREATE INDEX alerts_by_time ON alerts(raised_at);
                CREATE INDEX transactions_by_category_date ON transactions(category_id, date);
                CREATE TABLE goals (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    target_minor INTEGER NOT NULL CHECK (target_minor > 0),
                    currency TEXT NOT NULL,
                    deadline TEXT,
                    wallet_id INTEGER REFERENCES wallets(id),
                    category_id INTEGER REFERENCES categories(id),
                    auto_fund TEXT,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE goal_contributions (
                    id INTEGER PRIMARY KEY,
                    goal_id INTEGER NOT NULL REFERENCES goals(id),
                    amount_minor INTEGER NOT NULL,
                    date TEXT NOT NULL,
                    tx_id INTEGER,
                    autofund_month TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX goal_contributions_by_goal ON goal_contributions(goal_id);
                CREATE UNIQUE INDEX goal_autofund_once ON goal_contributions(goal_id, autofund_month) WHERE autofund_month IS NOT NULL;
                CREATE TABLE recurring (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    template TEXT NOT NULL,
                    frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly', 'yearly')),
                    every INTEGER NOT NULL CHECK (every BETWEEN 1 AND 1000),
                    start_date TEXT NOT NULL,
                    end_date TEXT,
                    next_index INTEGER NOT NULL DEFAULT 0,
                    next_run TEXT,
                    mode TEXT NOT NULL CHECK (mode IN ('post', 'remind')),
                    paused INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                """)
        }
        // Reports and imports: totals kept per month, wallet, category, kind and currency on
        // every write (docs/reports-import-export.md), and the columns that let an import find duplicates and
        // be taken back.
        migrator.registerMigration("v5-reports-imports") { db in
            try db.execute(sql: """
                ALTER TABLE transactions ADD COLUMN import_key TEXT;
                ALTER TABLE transactions ADD COLUMN import_id TEXT;
                CREATE UNIQUE INDEX transactions_by_import_key ON transactions(wallet_id, import_key) WHERE import_key IS NOT NULL;
                CREATE INDEX transactions_by_import ON transactions(import_id) WHERE import_id IS NOT NULL;
                CREATE TABLE ledger_totals (
                    month TEXT NOT NULL,
                    wallet_id INTEGER NOT NULL,
                    category_id INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    transfer INTEGER NOT NULL,
                    currency TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    amount_minor INTEGER NOT NULL,
                    wallet_minor INTEGER NOT NULL,
                    base_minor INTEGER NOT NULL,
                    missing_base INTEGER NOT NULL,
                    -- SQLite makes an overflowing integer sum a float: refuse it (LedgerTotals.flush).
                    CHECK (typeof(amount_minor) = 'integer' AND typeof(wallet_minor) = 'integer' AND typeof(base_minor) = 'integer'),
                    PRIMARY KEY (month, wallet_id, category_id, kind, transfer, currency)
                ) WITHOUT ROWID;
                """)
            try LedgerTotals.rebuild(db)
        }
        // Transaction ids are never handed out again (D75): a deleted newest transaction's id
        // went to the next one, so a retried `tx.delete` could delete the wrong transaction and
        // readers that page by id skipped the new row. SQLite cannot add AUTOINCREMENT to a
        // table, so the table is rebuilt from its own stored definition (keeping every column
        // added since v1, in order) and its indexes are made again.
        migrator.registerMigration("v6-transaction-ids-never-reused") { db in
            try TableRebuild.addAutoincrement(db, table: "transactions")
        }
        // A goal contribution whose transfer is deleted stops counting but stays in the goal's
        // history (D76); its auto-fund month stays taken.
        migrator.registerMigration("v7-withdrawn-contributions") { db in
            try db.execute(sql: "ALTER TABLE goal_contributions ADD COLUMN withdrawn_at TEXT")
            try db.execute(sql: "CREATE INDEX goal_contributions_by_transaction ON goal_contributions(tx_id) WHERE tx_id IS NOT NULL")
        }
        // The backfill finds every waiting transaction a new rate covers by wallet currency and
        // day (D79), not by scanning the newest few thousand.
        migrator.registerMigration("v8-waiting-by-date") { db in
            try db.execute(sql: "CREATE INDEX transactions_waiting_by_date ON transactions(date, id) WHERE base_amount_minor IS NULL")
        }
        // A budget's limit has a history (D82): a change applies from a month on and earlier months
        // keep the limit they had. Each existing budget's one limit becomes its first entry.
        // `budgets.limit_minor` and `budgets.currency` keep the first limit and are no longer read.
        migrator.registerMigration("v9-budget-limit-history") { db in
            try db.execute(sql: """
                CREATE TABLE budget_limits (
                    budget_id INTEGER NOT NULL REFERENCES budgets(id) ON DELETE CASCADE,
                    from_month TEXT NOT NULL,
                    limit_minor INTEGER NOT NULL CHECK (limit_minor > 0),
                    currency TEXT NOT NULL,
                    PRIMARY KEY (budget_id, from_month)
                ) WITHOUT ROWID;
                INSERT INTO budget_limits (budget_id, from_month, limit_minor, currency)
                    SELECT id, start_month, limit_minor, currency FROM budgets;
                """)
        }
        // Investments (docs/investments.md). Trades are the facts; `lots` and `realisations`
        // are derived from them, replayed per asset in the same write as any trade change
        // (D130), so reads are SQL sums. Quantities, prices and rates are exact decimal text;
        // money is integer minor units of the currency named beside it.
        migrator.registerMigration("v10-investments") { db in
            try db.execute(sql: """
                ALTER TABLE settings ADD COLUMN stale_equity_minutes INTEGER NOT NULL DEFAULT 60;
                ALTER TABLE settings ADD COLUMN allocation_drift_points INTEGER NOT NULL DEFAULT 5;
                ALTER TABLE rate_providers ADD COLUMN requests_used INTEGER;
                ALTER TABLE rate_providers ADD COLUMN request_quota INTEGER;
                ALTER TABLE rate_providers ADD COLUMN quota_day TEXT;
                ALTER TABLE transactions ADD COLUMN trade_id INTEGER;
                ALTER TABLE transactions ADD COLUMN trade_transfer INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX transactions_by_trade ON transactions(trade_id) WHERE trade_id IS NOT NULL;
                CREATE TABLE invest_accounts (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    broker TEXT,
                    account_type TEXT NOT NULL,
                    base_currency TEXT NOT NULL,
                    cost_basis_method TEXT NOT NULL,
                    include_in_net_worth INTEGER NOT NULL DEFAULT 1,
                    archived INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE assets (
                    id INTEGER PRIMARY KEY,
                    symbol TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    asset_type TEXT NOT NULL,
                    name TEXT,
                    exchange TEXT,
                    quote_currency TEXT NOT NULL,
                    provider TEXT NOT NULL,
                    provider_id TEXT,
                    allocation_group TEXT,
                    watched INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE trades (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    account_id INTEGER REFERENCES invest_accounts(id),
                    asset_id INTEGER NOT NULL REFERENCES assets(id),
                    date TEXT NOT NULL,
                    quantity TEXT,
                    price TEXT,
                    fee_minor INTEGER,
                    amount_minor INTEGER,
                    currency TEXT NOT NULL,
                    rate TEXT,
                    amount_base_minor INTEGER,
                    base_currency TEXT,
                    ratio TEXT,
                    to_account_id INTEGER REFERENCES invest_accounts(id),
                    lots TEXT,
                    cash_wallet_id INTEGER REFERENCES wallets(id),
                    cash_tx_id INTEGER,
                    cash_amount_minor INTEGER,
                    cash_currency TEXT,
                    notes TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX trades_by_asset ON trades(asset_id, date, id);
                CREATE INDEX trades_by_account ON trades(account_id, date, id);
                CREATE TABLE lots (
                    id INTEGER NOT NULL,
                    account_id INTEGER NOT NULL,
                    asset_id INTEGER NOT NULL,
                    acquired TEXT NOT NULL,
                    quantity TEXT NOT NULL,
                    cost_minor INTEGER NOT NULL,
                    cost_base_minor INTEGER NOT NULL,
                    PRIMARY KEY (account_id, id)
                ) WITHOUT ROWID;
                CREATE INDEX lots_by_asset ON lots(asset_id);
                CREATE TABLE positions (
                    account_id INTEGER NOT NULL,
                    asset_id INTEGER NOT NULL,
                    quantity TEXT NOT NULL,
                    cost_minor INTEGER NOT NULL,
                    cost_base_minor INTEGER NOT NULL,
                    PRIMARY KEY (account_id, asset_id)
                ) WITHOUT ROWID;
                CREATE INDEX positions_by_asset ON positions(asset_id);
                CREATE TABLE realisations (
                    trade_id INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    account_id INTEGER NOT NULL,
                    asset_id INTEGER NOT NULL,
                    date TEXT NOT NULL,
                    lot_id INTEGER NOT NULL,
                    acquired TEXT NOT NULL,
                    quantity TEXT NOT NULL,
                    cost_minor INTEGER NOT NULL,
                    proceeds_minor INTEGER NOT NULL,
                    cost_base_minor INTEGER NOT NULL,
                    proceeds_base_minor INTEGER NOT NULL,
                    currency_effect_minor INTEGER NOT NULL,
                    PRIMARY KEY (trade_id, position)
                ) WITHOUT ROWID;
                CREATE INDEX realisations_by_date ON realisations(date);
                CREATE INDEX realisations_by_asset ON realisations(asset_id);
                CREATE TABLE price_snapshots (
                    id INTEGER PRIMARY KEY,
                    asset_id INTEGER NOT NULL REFERENCES assets(id),
                    price TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    source TEXT NOT NULL,
                    as_of TEXT NOT NULL,
                    confidence TEXT NOT NULL,
                    recorded_at TEXT NOT NULL,
                    UNIQUE (asset_id, source, as_of)
                );
                CREATE INDEX price_snapshots_latest ON price_snapshots(asset_id, as_of);
                CREATE TABLE allocation_targets (
                    dimension TEXT NOT NULL,
                    key TEXT NOT NULL COLLATE NOCASE,
                    percent TEXT NOT NULL,
                    drifting INTEGER NOT NULL DEFAULT 0,
                    episode INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (dimension, key)
                ) WITHOUT ROWID;
                """)
        }
        // Net worth (docs/networth.md). Valuations and liability entries are dated facts, never
        // overwritten, so net worth at any past moment is read from history; a month's snapshot
        // is stored once (the month is the key) and never changed.
        migrator.registerMigration("v11-net-worth") { db in
            try db.execute(sql: """
                ALTER TABLE settings ADD COLUMN speculative_groups TEXT NOT NULL DEFAULT '["speculative"]';
                ALTER TABLE transactions ADD COLUMN liability_id INTEGER;
                CREATE INDEX transactions_by_liability ON transactions(liability_id) WHERE liability_id IS NOT NULL;
                CREATE TABLE manual_assets (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    asset_type TEXT NOT NULL CHECK (asset_type IN ('tangible', 'intangible')),
                    currency TEXT NOT NULL,
                    volatile INTEGER NOT NULL,
                    include_in_core INTEGER NOT NULL,
                    include_in_tangible INTEGER NOT NULL,
                    notes TEXT,
                    archived INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE asset_valuations (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    asset_id INTEGER NOT NULL REFERENCES manual_assets(id),
                    date TEXT NOT NULL,
                    value_minor INTEGER NOT NULL CHECK (value_minor >= 0),
                    notes TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX asset_valuations_by_asset ON asset_valuations(asset_id, date, id);
                CREATE TABLE liabilities (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL COLLATE NOCASE UNIQUE,
                    liability_type TEXT NOT NULL CHECK (liability_type IN ('mortgage', 'loan', 'creditCard', 'other')),
                    currency TEXT NOT NULL,
                    interest_rate TEXT,
                    due_date TEXT,
                    notes TEXT,
                    archived INTEGER NOT NULL DEFAULT 0,
                    created_at TEXT NOT NULL,
                    updated_at TEXT NOT NULL
                );
                CREATE TABLE liability_entries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    liability_id INTEGER NOT NULL REFERENCES liabilities(id),
                    date TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('balance', 'payment')),
                    amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
                    wallet_id INTEGER REFERENCES wallets(id),
                    transaction_id INTEGER,
                    notes TEXT,
                    created_at TEXT NOT NULL
                );
                CREATE INDEX liability_entries_by_liability ON liability_entries(liability_id, date, id);
                CREATE TABLE networth_snapshots (
                    month TEXT PRIMARY KEY,
                    date TEXT NOT NULL,
                    base_currency TEXT NOT NULL,
                    total_assets_minor INTEGER NOT NULL,
                    total_liabilities_minor INTEGER NOT NULL,
                    net_worth_minor INTEGER NOT NULL,
                    core_minor INTEGER NOT NULL,
                    tangible_minor INTEGER NOT NULL,
                    volatile_minor INTEGER NOT NULL,
                    complete INTEGER NOT NULL,
                    warnings TEXT NOT NULL,
                    items TEXT NOT NULL,
                    taken_at TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        // `invest.gains` sums a period's realisations per base currency and its income on every
        // page (D140). The base currency was the sale's (a join to `trades` per realisation, 30 ms a
        // year at 100,000 trades) and income scanned every trade: each realisation now carries its
        // sale's base currency, and both sums read a covering index by date (D142).
        migrator.registerMigration("v12-gains-by-date") { db in
            try db.execute(sql: """
                ALTER TABLE realisations ADD COLUMN base_currency TEXT;
                UPDATE realisations SET base_currency = (SELECT base_currency FROM trades WHERE trades.id = realisations.trade_id);
                CREATE INDEX realisations_totals_by_date
                    ON realisations(date, base_currency, account_id, asset_id, proceeds_base_minor, cost_base_minor, currency_effect_minor);
                CREATE INDEX trades_income_by_date ON trades(date, base_currency, account_id, asset_id, amount_base_minor)
                    WHERE kind IN ('dividend', 'interest', 'distribution');
                """)
        }
        // Issue 16: the category, cash-flow and payee reports read totals kept with every write
        // (LedgerTotals), never the transactions; filled once here from the transactions.
        // Split parts get their transaction's date.
        migrator.registerMigration("v13-report-totals") { db in
            try db.execute(sql: """
                CREATE TABLE category_totals (
                    month TEXT NOT NULL,
                    category_id INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    amount_minor INTEGER NOT NULL,
                    base_minor INTEGER NOT NULL,
                    missing_base INTEGER NOT NULL,
                    CHECK (typeof(amount_minor) = 'integer' AND typeof(base_minor) = 'integer'),
                    PRIMARY KEY (month, category_id, kind, currency)
                ) WITHOUT ROWID;
                CREATE TABLE payee_totals (
                    month TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    notes TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    base_minor INTEGER NOT NULL,
                    missing_base INTEGER NOT NULL,
                    CHECK (typeof(base_minor) = 'integer'),
                    PRIMARY KEY (month, kind, notes)
                ) WITHOUT ROWID;
                """)
            try LedgerTotals.rebuild(db)
            // `tx.list` counts a category's split parts in a date range from one index (D224).
            try db.execute(sql: """
                ALTER TABLE splits ADD COLUMN date TEXT NOT NULL DEFAULT '';
                UPDATE splits SET date = (SELECT date FROM transactions WHERE transactions.id = splits.tx_id);
                CREATE INDEX splits_by_category_date ON splits(category_id, date, tx_id);
                DROP INDEX splits_by_category;
                """)
        }
        // Issue 17: sync. This device's place in a hub ledger and its clock (one row), each
        // synced thing's global id with its field clocks and the fields as last sent or
        // applied, and the messages waiting to be pushed. Costs nothing while sync is off.
        migrator.registerMigration("v15-sync") { db in
            try db.execute(sql: """
                CREATE TABLE sync_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    enabled INTEGER NOT NULL DEFAULT 0,
                    ledger_id TEXT,
                    device_id TEXT,
                    hub TEXT,
                    clock TEXT,
                    stamped_seq INTEGER NOT NULL DEFAULT 0,
                    scan_entity TEXT,
                    scan_after INTEGER NOT NULL DEFAULT 0,
                    pulled_seq INTEGER NOT NULL DEFAULT 0,
                    last_success TEXT,
                    last_error TEXT,
                    last_error_at TEXT,
                    waiting_in INTEGER,
                    notices TEXT NOT NULL DEFAULT '[]'
                );
                INSERT INTO sync_state (id) VALUES (1);
                CREATE TABLE sync_ids (
                    entity TEXT NOT NULL,
                    gid TEXT NOT NULL,
                    local_id INTEGER,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    clocks TEXT NOT NULL,
                    fields TEXT NOT NULL,
                    PRIMARY KEY (entity, gid)
                ) WITHOUT ROWID;
                CREATE UNIQUE INDEX sync_ids_by_local ON sync_ids(entity, local_id) WHERE local_id IS NOT NULL;
                CREATE TABLE sync_outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    message TEXT NOT NULL
                );
                """)
        }
        // A withdrawn contribution's transaction is gone, and SQLite may give its id to a new
        // one: the link is dropped (D307).
        migrator.registerMigration("v16-withdrawn-contributions-unlinked") { db in
            try db.execute(sql: "UPDATE goal_contributions SET tx_id = NULL WHERE withdrawn_at IS NOT NULL AND tx_id IS NOT NULL")
        }
        // Sync stamps a profile's typed rates on each `rates.updated` of source `manual`: found
        // without reading the profile's fetched rates (a profile may hold years of a feed).
        migrator.registerMigration("v17-typed-rates") { db in
            try db.execute(sql: "CREATE INDEX rates_typed ON rates(profile_id, id) WHERE source = 'manual'")
        }
        // A device already syncing sends what this version syncs and the last did not (goals,
        // snapshots, assets, liabilities, rate profiles, typed rates, the settings' profile
        // choices): the scan runs again from the start; what was sent and is unchanged sends
        // nothing.
        migrator.registerMigration("v18-sync-new-kinds") { db in
            try db.execute(sql: "UPDATE sync_state SET scan_entity = 'settings', scan_after = 0 WHERE enabled = 1")
        }
        // Investments sync (D312): a merged history may hold a trade the lots cannot take; it is
        // kept, marked with the reason, and left out of the lots; a synced trade keeps its order
        // among the day's trades from the device that recorded it, and a lot its buy's order
        // among the day's lots (`TradeRow.lotOrder`). The scan runs again so a device
        // already syncing sends its accounts, securities, trades, typed prices and targets.
        migrator.registerMigration("v19-sync-investments") { db in
            try db.execute(sql: """
                ALTER TABLE trades ADD COLUMN unapplied TEXT;
                ALTER TABLE trades ADD COLUMN recorded_order INTEGER;
                ALTER TABLE lots ADD COLUMN lot_order TEXT NOT NULL DEFAULT '';
                UPDATE lots SET lot_order = coalesce((SELECT created_at || '#' || printf('%020d', id) FROM trades WHERE trades.id = lots.id), '');
                UPDATE sync_state SET scan_entity = 'settings', scan_after = 0 WHERE enabled = 1;
                """)
        }
        // `transactions_by_category_date` (v6) starts with `category_id`, so it answers every
        // look-up `transactions_by_category` did; the load no longer writes both (D361).
        migrator.registerMigration("v20-drop-redundant-category-index") { db in
            try db.execute(sql: "DROP INDEX transactions_by_category")
        }
        // `tx.list` counts a category's whole months from `ledger_totals` (D358), whose key
        // starts with the month: it read every row of those months (33,000 rows in all at a
        // million transactions) to keep its categories' ones. This index finds them, and holds
        // the count (D362).
        migrator.registerMigration("v21-ledger-totals-by-category") { db in
            try db.execute(sql: "CREATE INDEX ledger_totals_by_category ON ledger_totals(category_id, month, count)")
        }
        // Each rate snapshot is stored once, in `conversion_snapshots`, and a transaction refers to
        // its two by id (D372): a day's transactions in one currency share one snapshot, and its
        // 250 bytes of text on every such row were a third of the table and of what a load wrote.
        migrator.registerMigration("v22-conversion-snapshots") { db in
            try db.execute(sql: """
                CREATE TABLE conversion_snapshots (
                    id INTEGER PRIMARY KEY,
                    snapshot TEXT NOT NULL UNIQUE
                );
                INSERT INTO conversion_snapshots (snapshot)
                    SELECT snapshot FROM (
                        SELECT conversion AS snapshot, id FROM transactions WHERE conversion IS NOT NULL
                        UNION ALL SELECT base_conversion, id FROM transactions WHERE base_conversion IS NOT NULL)
                    GROUP BY snapshot ORDER BY min(id);
                ALTER TABLE transactions ADD COLUMN conversion_id INTEGER REFERENCES conversion_snapshots(id);
                ALTER TABLE transactions ADD COLUMN base_conversion_id INTEGER REFERENCES conversion_snapshots(id);
                UPDATE transactions SET
                    conversion_id = (SELECT s.id FROM conversion_snapshots s WHERE s.snapshot = transactions.conversion),
                    base_conversion_id = (SELECT s.id FROM conversion_snapshots s WHERE s.snapshot = transactions.base_conversion)
                    WHERE conversion IS NOT NULL OR base_conversion IS NOT NULL;
                ALTER TABLE transactions DROP COLUMN conversion;
                ALTER TABLE transactions DROP COLUMN base_conversion;
                """)
        }
        // `tx.list` counted a category's split transactions with `count(DISTINCT)` over the split
        // parts' index, whose temporary B-tree was most of the request at a million (D377). Kept
        // per month and category subtree by `LedgerTotals`; filled by v24, which runs next (this
        // migration filled it itself before v24 existed, with the rows v24 recomputes).
        migrator.registerMigration("v23-split-subtree-counts") { db in
            try db.execute(sql: """
                CREATE TABLE split_subtree_counts (
                    month TEXT NOT NULL,
                    category_id INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (category_id, month)
                ) WITHOUT ROWID;
                """)
        }
        // The count then took off the split parts of the whole months by counting them in their
        // index, 5,601 entries for Food at a million and most of what was left of the request:
        // the table keeps them too (D385), and every row is recomputed with them.
        migrator.registerMigration("v24-split-subtree-parts") { db in
            try db.execute(sql: "ALTER TABLE split_subtree_counts ADD COLUMN parts INTEGER NOT NULL DEFAULT 0")
            try SplitSubtreeCounts.rebuild(db)
        }
        // A feed's same-day correction (USD 1.08, then 1.09 for the same date) was dropped by the
        // UNIQUE (profile, pair, moment, source): it is kept as the moment's next `revision`, the
        // first staying in the history (D402). SQLite cannot change a table's constraint in
        // place, so the table is made again with the same columns and indexes.
        migrator.registerMigration("v25-rate-corrections") { db in
            try RateCorrectionsMigration.run(db)
        }
        // Issue 44, findings 4 and 5: hub rows this device put aside instead of applying, a row
        // that did not open or decode (quarantined, kept to be named in `sync status`) or a
        // message whose clock is too far ahead (held, with the message, until it is near enough).
        migrator.registerMigration("v26-sync-set-aside") { db in
            try db.execute(sql: """
                CREATE TABLE sync_set_aside (
                    hub_seq INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN ('quarantined', 'held')),
                    device TEXT NOT NULL,
                    hlc TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    clock_ms INTEGER,
                    message TEXT,
                    at TEXT NOT NULL
                )
                """)
        }
        // Issue 44, finding 3: each device numbers what it sends (`sent_seq`) and keeps what it
        // sent for a re-send (`sync_sent`); what each other device's numbers say is missing here
        // (`sync_peers`).
        migrator.registerMigration("v27-sync-gaps") { db in
            try db.execute(sql: """
                ALTER TABLE sync_state ADD COLUMN sent_seq INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE sync_sent (seq INTEGER PRIMARY KEY, message TEXT NOT NULL);
                CREATE TABLE sync_peers (
                    device TEXT PRIMARY KEY,
                    last_seq INTEGER NOT NULL,
                    missing TEXT NOT NULL DEFAULT '[]',
                    requested TEXT,
                    requested_at TEXT
                ) WITHOUT ROWID;
                """)
        }
        // Issue 45 item 6 (D414): an average-cost sale could leave its pool a minor unit or two
        // off what it took; the lots and realisations are derived, so every asset traded in an
        // average-cost account is replayed once by the corrected rule.
        // The replay itself runs after every step, with the code of the version that runs it
        // (`AverageCostRepair`): this step only marks it as due.
        migrator.registerMigration("v28-average-cost-replay") { db in try AverageCostRepair.markDue(db) }
        // Issue 45 item 7 (D416): ROL has two decimals. The step changes nothing; it marks a
        // ledger made, or checked to hold no ROL, after the correction (`StoreDatabase`).
        migrator.registerMigration(rolMinorUnitStep) { _ in }
        // D461: a ledger that was syncing before this device followed the devices' numbers has
        // seen devices send numbers it never followed (a device upgraded first sent 1…N while
        // this one ignored them). For such a ledger the first number seen from a device is its
        // start, not a gap from 1 (`gap_baseline`); a fresh ledger, a join and another ledger
        // stay strict. Keep this one last.
        migrator.registerMigration("v29-sync-gap-baseline") { db in
            try db.execute(sql: """
                ALTER TABLE sync_state ADD COLUMN gap_baseline INTEGER NOT NULL DEFAULT 0;
                UPDATE sync_state SET gap_baseline = 1 WHERE id = 1 AND ledger_id IS NOT NULL;
                """)
        }
        // D482: the ledger that replaced this device's after a rekey elsewhere, until it re-joins.
        migrator.registerMigration("v32-sync-rejoin") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN rejoin_ledger_id TEXT")
        }
        // D531: how the hub knew this device on the last connection a round reported, for
        // `sync status` ("SCRAM-SHA-256", or the request that was refused).
        migrator.registerMigration("v33-sync-hub-authentication") { db in
            try db.execute(sql: "ALTER TABLE sync_state ADD COLUMN hub_authentication TEXT")
        }
        // D520–D522: the heartbeat a device owes (`heartbeat_seq`, the highest number its last
        // heartbeat counted, and `numbered_at`, when it last numbered a message), the numbers a
        // sender answered as gone (`lost`, `lost_at`), and the newest re-send request answered
        // per device (`answered_request`), so a replayed one sends nothing again.
        migrator.registerMigration("v34-sync-gap-liveness") { db in
            try db.execute(sql: """
                ALTER TABLE sync_state ADD COLUMN heartbeat_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sync_state ADD COLUMN numbered_at INTEGER;
                ALTER TABLE sync_peers ADD COLUMN lost TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE sync_peers ADD COLUMN lost_at TEXT;
                ALTER TABLE sync_peers ADD COLUMN answered_request INTEGER NOT NULL DEFAULT 0;
                """)
        }
        return migrator
    }

    /// The schema step after which ROL amounts are stored in bani (D416).
    static let rolMinorUnitStep = "v31-rol-minor-unit"
}
