// `ledgerly-bench-true`: a Swift executable that does nothing and exits 0, built with the same
// flags as `ledgerly`. `ledgerly-bench ledger` times its start-to-exit as the machine's floor for
// any Swift program's start-up (exec, the dynamic loader, the runtime's own start), the limit
// that `ledgerly --version` is read against. It imports nothing on purpose: what it pays is what
// every Swift binary pays before its first line runs.
