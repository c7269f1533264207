/// The commented files `ledgerly config init` writes: every setting with its default, commented
/// out, so a user edits the file instead of looking the names up. Each is valid as written (the
/// tests check both with the services' own `--check-config`) and means exactly the defaults.
enum ConfigTemplates {
    static let rates = #"""
    // Ledgerly: where exchange rates and asset prices come from (rates.json, read as JSON5:
    // comments and trailing commas are fine). `ledgerly config check` checks it; a running
    // ledgerly-rates takes changes on SIGHUP (systemctl --user reload ledgerly-rates).
    {
      // Each provider feeds one rate profile. Without this file: the ECB's daily reference rates
      // feed "official".
      "providers": [
        {
          "name": "ecb",
          "format": "ecb-daily-xml",          // ecb-daily-xml, ecb-history-csv, rates-api-json, coingecko
          "url": "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml",
          "profile": "official",
          // "headers": {"Authorization": "Bearer …"},   // API keys for paid providers
          // "timeoutSeconds": 30,
          // "minimumSecondsBetweenRequests": 1,
        },
      ],

      // When to refresh: on by default, retrying after a failure from 30 s up to an hour.
      // "schedule": {"enabled": true, "retryInitialSeconds": 30, "retryMaximumSeconds": 3600},

      // Your own rate files (a parallel market, a bank's rate): dropped here, read every 2 s.
      // "dropFolder": {"path": "dropfolder", "profile": "parallel", "scanSeconds": 2, "enabled": true},

      // Asset prices for investments.
      // "prices": {
      //   "alphaVantage": {"apiKey": "…", "dailyQuota": 25},
      //   "coinGecko": {"headers": {"x-cg-demo-api-key": "…"}},
      //   "finnhub": {"enabled": true, "apiKey": "…"},
      //   "dropFolder": {"path": "dropfolder/prices"},
      //   "nightlyPurge": true,
      // },
    }

    """#

    static let alerts = #"""
    // Ledgerly: where alerts go besides the log (alerts.json, read as JSON5). It may hold webhook
    // secrets: keep it mode 0600. `ledgerly config check` checks it; a running ledgerly-alerts
    // takes changes on SIGHUP (systemctl --user reload ledgerly-alerts).
    {
      // Programs run for each alert, with the alert as JSON on stdin and in LEDGERLY_ALERT_*
      // variables. This one shows a desktop notification with the alert's subject and message:
      // "commandHooks": [
      //   {"name": "notify", "timeoutSeconds": 10,
      //    "command": ["/bin/sh", "-c", "exec notify-send -- \"$LEDGERLY_ALERT_SUBJECT\" \"$LEDGERLY_ALERT_MESSAGE\""]},
      // ],

      // Signed POSTs, retried until delivered. "signature": "hmac-sha256" (default) or
      // "hmac-sha3-256" (as Firefly III signs). "events": ["alerts"] by default; add
      // "transactions" for every change to transactions (a hook takes "events" too).
      // "webhooks": [
      //   {"name": "phone", "url": "https://example.net/hooks/ledgerly", "secret": "…",
      //    "signature": "hmac-sha256", "retryInitialSeconds": 5, "retryMaximumSeconds": 600,
      //    "maximumAttempts": 20, "timeoutSeconds": 10, "events": ["alerts"]},
      // ],

      // Refuse http:// webhook URLs.
      // "httpsOnly": true,
    }

    """#
}
