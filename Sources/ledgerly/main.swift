import LedgerlyCLI

LedgerlyCommand.main()
