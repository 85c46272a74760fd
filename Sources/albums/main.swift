// The albums executable: everything lives in AlbumsApp, where tests reach it.
import AlbumsApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(await AlbumsApp.run(arguments: CommandLine.arguments))
