import Foundation

/// A PostgreSQL of its own for one test: `initdb` in a temporary directory (as the `postgres`
/// user when the tests run as root, as `scripts/cluster` does), trust auth on 127.0.0.1 and a
/// free port, fsync off. ``stop()`` stops it (immediate) and deletes the directory.
struct PrivatePostgres {
    let directory: String
    let port: Int
    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres" }

    private static let script = #"""
        set -eu
        dir="$1"
        exec > "$dir/start.out" 2>&1
        # Foundation's Process learns that its child ended when every copy of a descriptor it
        # passed is closed: PostgreSQL must not inherit one.
        for fd in $(ls /proc/$$/fd); do if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done
        bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
        [ -x "$bin/initdb" ] || { echo "no PostgreSQL (apt-get install -y postgresql)" >&2; exit 2; }
        as_owner() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
        chmod 755 "$dir"
        mkdir -p "$dir/data"
        [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/data"
        chmod 700 "$dir/data"
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale > "$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            port=$((20000 + RANDOM % 40000))
            if as_owner "$bin/pg_ctl" start -D "$dir/data" -l "$dir/data/postgres.log" -w -t 60 \
                -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/data -c fsync=off -c max_connections=60" > /dev/null 2>&1; then
                echo "$port"
                exit 0
            fi
        done
        tail -20 "$dir/data/postgres.log" >&2
        exit 1
        """#

    /// Starts one on a thread of its own, not the caller's: `initdb` and the server's start take
    /// seconds, and tests blocked in them held cooperative threads (two such tests at the start
    /// of the servers phase held both for ~7 s, and other suites' requests timed out).
    /// - Throws: when PostgreSQL is missing or does not start (the reason is in the error).
    static func start() async throws -> PrivatePostgres {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try startBlocking() }) }.start()
        }
    }

    private static func startBlocking() throws -> PrivatePostgres {
        let directory = NSTemporaryDirectory() + "dw-postgres-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (status, output) = try run(script, directory)
        guard status == 0, let port = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw StartError(description: "PostgreSQL did not start (exit \(status)): \(output)")
        }
        return PrivatePostgres(directory: directory, port: port)
    }

    func stop() {
        _ = try? Self.run(#"""
            bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
            if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$bin/pg_ctl" stop -D "$1/data" -m immediate -w > /dev/null 2>&1
            else "$bin/pg_ctl" stop -D "$1/data" -m immediate -w > /dev/null 2>&1; fi
            """#, directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `script` with `argument` (the directory) and returns its exit status and what it
    /// wrote to `start.out` there. No pipe: PostgreSQL would inherit it and hold it open
    /// (``SpawnedProcess``: not Foundation's `Process`, whose start can crash on Linux).
    private static func run(_ script: String, _ argument: String) throws -> (Int32, String) {
        let status = try SpawnedProcess.run("/bin/bash", ["bash", "-c", script, "private-postgres", argument])
        let output = (try? String(contentsOfFile: argument + "/start.out", encoding: .utf8)) ?? ""
        return (status, output)
    }
}
