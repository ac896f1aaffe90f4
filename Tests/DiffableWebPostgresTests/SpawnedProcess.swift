import Glibc

/// Runs a program and waits for it, with `posix_spawn` rather than Foundation's `Process`.
///
/// `Process.run()` on Linux reads `/proc/self/fd` to close the child's other descriptors and
/// copies each entry's whole 256-byte name (swift-corelibs-foundation PR #5472): when an entry
/// ends glibc's read buffer and the next page is unmapped, the copy faults. The servers phase,
/// with hundreds of sockets open, crashed that way in a fresh-clone run (`PrivatePostgres.start()`,
/// "Bad pointer dereference" in `Process.run`). Here the child gets `/dev/null` for 0, 1 and 2
/// and no other descriptor (glibc's `posix_spawn_file_actions_addclosefrom_np`, 2.34+, looked
/// up at run time: Swift's Glibc module does not declare it), so a server it starts holds none
/// of the tests' sockets open.
enum SpawnedProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// Runs `path` with `arguments` (the first is the program's name) and returns its exit
    /// status (128 + the signal when a signal ended it).
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            throw Failure(description: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
        }
        let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw Failure(description: "posix_spawn_file_actions_init failed") }
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, flags) in [(Int32(0), O_RDONLY), (1, O_WRONLY), (2, O_WRONLY)] {
            guard posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", flags, 0) == 0 else {
                throw Failure(description: "posix_spawn_file_actions_addopen failed")
            }
        }
        guard addCloseFrom(&actions, 3) == 0 else { throw Failure(description: "posix_spawn_file_actions_addclosefrom_np failed") }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, &argv, environ)
        guard spawned == 0 else { throw Failure(description: "could not run \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid failed: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
