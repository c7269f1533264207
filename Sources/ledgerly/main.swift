import Glibc
import LedgerlyCLI

exit(LedgerlyCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
