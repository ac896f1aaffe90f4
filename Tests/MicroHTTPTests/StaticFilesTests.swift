import Foundation
@testable import MicroHTTP
import Synchronization
import Testing
import HTTPTestSupport

/// A served directory with a file outside it, and symlinks pointing in and out.
struct StaticFixture {
    let base: URL
    var root: URL { base.appendingPathComponent("root") }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("microhttp-static-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: base.appendingPathComponent("root/sub"), withIntermediateDirectories: true)
        try fm.createDirectory(at: base.appendingPathComponent("outside"), withIntermediateDirectories: true)
        try "<h1>index</h1>".write(to: base.appendingPathComponent("root/index.html"), atomically: true, encoding: .utf8)
        try "console.log(1)".write(to: base.appendingPathComponent("root/app.js"), atomically: true, encoding: .utf8)
        try "body{}".write(to: base.appendingPathComponent("root/style.css"), atomically: true, encoding: .utf8)
        try "{\"a\":1}".write(to: base.appendingPathComponent("root/sub/data.json"), atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: base.appendingPathComponent("root/logo.png"))
        try "TOP SECRET".write(to: base.appendingPathComponent("outside/secret.txt"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/link-out").path, withDestinationPath: "../outside/secret.txt")
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/link-dir").path, withDestinationPath: "../outside")
        try fm.createSymbolicLink(atPath: base.appendingPathComponent("root/link-in.js").path, withDestinationPath: "app.js")
    }

    func remove() { try? FileManager.default.removeItem(at: base) }

    func server() throws -> HTTPServer {
        let files = StaticFiles(root: root, urlPrefix: "/static")
        return try startServer { request in
            files.response(for: request) ?? HTTPError(.notFound).response
        }
    }
}

@Suite("Static files")
struct StaticFilesTests {
    @Test("files are served with the Content-Type of their extension", arguments: [
        ("/static/index.html", "text/html; charset=utf-8", "<h1>index</h1>"),
        ("/static/app.js", "text/javascript; charset=utf-8", "console.log(1)"),
        ("/static/style.css", "text/css; charset=utf-8", "body{}"),
        ("/static/sub/data.json", "application/json", "{\"a\":1}"),
        ("/static/", "text/html; charset=utf-8", "<h1>index</h1>"),
        ("/static/link-in.js", "text/javascript; charset=utf-8", "console.log(1)"),
    ])
    func contentTypes(path: String, contentType: String, body: String) async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        let server = try fixture.server()
        defer { server.stop() }
        let response = try await get(port: server.port, path)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == contentType)
        #expect(response.text == body)
        #expect(response.header("Cache-Control") == "no-cache")
    }

    @Test("a matching If-None-Match gets 304 with the same ETag; a stale one gets the file")
    func etags() async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        let server = try fixture.server()
        defer { server.stop() }
        let first = try await get(port: server.port, "/static/app.js")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        let again = try await get(port: server.port, "/static/app.js", headers: ["If-None-Match": "\"other\", \(etag)"])
        #expect(again.status == 304)
        #expect(again.header("ETag") == etag)
        #expect(again.body.isEmpty)
        let stale = try await get(port: server.port, "/static/app.js", headers: ["If-None-Match": "\"stale\""])
        #expect(stale.status == 200)
        #expect(stale.text == "console.log(1)")
    }

    @Test("paths that leave the root are 404, however they are spelled", arguments: [
        "/static/../outside/secret.txt",
        "/static/%2e%2e/outside/secret.txt",
        "/static/%2E%2E/%2E%2E/etc/passwd",
        "/static/..%2foutside%2fsecret.txt",
        "/static/sub/../../outside/secret.txt",
        "/static/sub/%2e%2e/%2e%2e/outside/secret.txt",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/link-out",
        "/static/link-dir/secret.txt",
        "/static/app.js%00.txt",
        "/static/.",
        "/etc/passwd",
    ])
    func traversal(path: String) async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        let server = try fixture.server()
        defer { server.stop() }
        let response = try await exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(response.status == 404)
        #expect(!response.text.contains("SECRET"))
        #expect(!response.text.contains("root:"))
    }

    @Test("HEAD gets headers only; other methods on a file get 405 with Allow")
    func methods() async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        let server = try fixture.server()
        defer { server.stop() }
        let head = try await exchange(port: server.port, "HEAD /static/logo.png HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", head: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "image/png")
        #expect(head.header("Content-Length") == "4")
        let post = try await post(port: server.port, "/static/app.js", body: [])
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
    }

    @Test("an immediate handler answers on the server's thread; nil falls through to the async handler")
    func immediateHandler() async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        let files = StaticFiles(root: fixture.root)
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.immediateHandler = { request in request.path == "/fallthrough" ? nil : files.response(for: request) }
        let server = try HTTPServer(configuration: configuration, logger: quietLogger) { request in
            .text("async \(request.path)")
        }
        try server.start()
        defer { server.stop() }
        let file = try await get(port: server.port, "/app.js")
        #expect(file.status == 200 && file.text == "console.log(1)")
        let etag = try #require(file.header("ETag"))
        #expect(try await get(port: server.port, "/app.js", headers: ["If-None-Match": etag]).status == 304)
        #expect(try await get(port: server.port, "/fallthrough").text == "async /fallthrough")
        #expect(try await get(port: server.port, "/nope.txt").text == "async /nope.txt", "a missing file falls through")
        let escape = try await get(port: server.port, "/link-out")
        #expect(!escape.text.contains("TOP SECRET"), "traversal rules hold on the immediate path too")
    }

    @Test("small files are answered from memory, and a change on disk is seen after revalidateAfter")
    func memoryCache() async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        // The cache's clock is the test's: it moves past revalidateAfter when the test moves it.
        let clock = ManualClock()
        let files = StaticFiles(root: fixture.root.path, cache: StaticFileCache(revalidateAfter: 0.3, clock: clock.now))
        let server = try startServer { request in files.response(for: request) ?? HTTPError(.notFound).response }
        defer { server.stop() }
        let first = try await get(port: server.port, "/app.js")
        let second = try await get(port: server.port, "/app.js")
        #expect(first.text == "console.log(1)" && second.text == first.text)
        #expect(second.header("ETag") == first.header("ETag") && second.header("Last-Modified") == first.header("Last-Modified"))

        let file = fixture.root.appendingPathComponent("app.js")
        try "console.log(2) // longer".write(to: file, atomically: true, encoding: .utf8)
        #expect(try await get(port: server.port, "/app.js").text == "console.log(1)", "within revalidateAfter, the bytes in memory")
        clock.advance(by: .milliseconds(400))
        let changed = try await get(port: server.port, "/app.js")
        #expect(changed.text == "console.log(2) // longer")
        #expect(changed.header("ETag") != first.header("ETag"))
        #expect(try await get(port: server.port, "/app.js", headers: ["If-None-Match": first.header("ETag") ?? ""]).status == 200,
                "the old ETag no longer matches")

        try FileManager.default.removeItem(at: file)
        clock.advance(by: .milliseconds(400))
        #expect(try await get(port: server.port, "/app.js").status == 404, "a removed file is gone after revalidation")
    }

    @Test("revalidateAfter: 0 reads the disk on every request")
    func cacheOff() async throws {
        let fixture = try StaticFixture()
        defer { fixture.remove() }
        let files = StaticFiles(root: fixture.root, revalidateAfter: 0)
        let server = try startServer { request in files.response(for: request) ?? HTTPError(.notFound).response }
        defer { server.stop() }
        #expect(try await get(port: server.port, "/style.css").text == "body{}")
        try "body{color:red}".write(to: fixture.root.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        #expect(try await get(port: server.port, "/style.css").text == "body{color:red}")
    }
}

/// A clock that stands still until a test moves it (nanoseconds, as `monotonicNanoseconds`).
final class ManualClock: Sendable {
    private let nanoseconds = Atomic<UInt64>(1_000_000_000)

    var now: @Sendable () -> UInt64 { { [self] in nanoseconds.load(ordering: .relaxed) } }

    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        nanoseconds.add(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000), ordering: .relaxed)
    }
}

/// Files a public folder may contain by accident or malice: a FIFO, a UNIX socket, a device,
/// dotfiles and dot-directories, and symlinks to each.
struct HostileFixture {
    let base: StaticFixture
    var root: URL { base.root }
    /// Whether `mknod` worked here (it needs CAP_MKNOD): the device case is checked only then.
    let madeDevice: Bool

    init() throws {
        base = try StaticFixture()
        let root = base.root.path
        let fm = FileManager.default
        guard mkfifo(root + "/pipe.txt", 0o644) == 0 else { throw ClientError("mkfifo: errno \(errno)") }
        try fm.createSymbolicLink(atPath: root + "/pipe-link.js", withDestinationPath: "pipe.txt")
        // A UNIX socket bound to a path leaves a socket file behind.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((root + "/socket.txt").utf8CString)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.prefix(raw.count - 1).enumerated() { raw[i] = UInt8(bitPattern: byte) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        guard bound == 0 else { throw ClientError("bind: errno \(errno)") }
        madeDevice = mknod(root + "/zero.bin", S_IFCHR | 0o666, dev_t(0x105)) == 0  // makedev(1, 5): /dev/zero
        try fm.createSymbolicLink(atPath: root + "/dev-zero.bin", withDestinationPath: "/dev/zero")
        try "SECRET=1".write(toFile: root + "/.env", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try "[core]".write(toFile: root + "/.git/config", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: root + "/sub/.hidden", withIntermediateDirectories: true)
        try "hidden".write(toFile: root + "/sub/.hidden/page.html", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/env.txt", withDestinationPath: ".env")
        try fm.createSymbolicLink(atPath: root + "/git", withDestinationPath: ".git")
    }

    /// Rescues from a plain thread past ``Patience/hang`` (a blocked open may hold every thread
    /// of the cooperative pool), counted in ``rescues``.
    let rescues = CountSignal()

    /// Unblocks anything stuck opening the FIFO for reading (the bug this fixture exists for),
    /// so a failing test still ends: once from a plain thread past ``Patience/hang`` (the hang
    /// guard only), signalling ``rescues``. An open that did not block returns before that,
    /// with no rescue counted.
    func unblockFIFOPastHang() {
        let path = root.path + "/pipe.txt"
        let rescues = rescues
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Patience.hangSeconds)  // the hang guard only
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            rescues.signal()
        }
    }

    func unblockFIFO() {
        let fd = open(root.path + "/pipe.txt", O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }

    func remove() {
        unblockFIFO()
        base.remove()
    }
}

@Suite("Static files: only regular files, no dotfiles")
struct HostileStaticFilesTests {
    @Test("non-regular files are 404 and never block the server (async and immediate paths)", arguments: [
        "/static/pipe.txt", "/static/pipe-link.js", "/static/socket.txt", "/static/zero.bin", "/static/dev-zero.bin",
    ], [false, true])
    func nonRegular(path: String, immediate: Bool) async throws {
        let fixture = try HostileFixture()
        defer { fixture.remove() }
        if path == "/static/zero.bin" && !fixture.madeDevice { return }
        fixture.unblockFIFOPastHang()
        let files = StaticFiles(root: fixture.root, urlPrefix: "/static")
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
        if immediate { configuration.immediateHandler = { files.response(for: $0) } }
        let server = try HTTPServer(configuration: configuration, logger: quietLogger) { request in
            files.response(for: request) ?? HTTPError(.notFound).response
        }
        try server.start()
        defer { server.stop() }
        let response = try? await get(port: server.port, path)
        fixture.unblockFIFO()
        #expect(fixture.rescues.count == 0, "a blocked open shows up as a rescue here")
        #expect(response?.status == 404)
        // The thread that served it is free: the next request is answered.
        #expect(try await get(port: server.port, "/static/app.js").status == 200)
    }

    @Test("dotfiles and anything under a dot-directory are 404, however reached", arguments: [
        "/static/.env", "/static/%2eenv", "/static/.git/config", "/static/.git/", "/static/%2Egit/config",
        "/static/sub/.hidden/page.html", "/static/env.txt", "/static/git/config",
    ])
    func dotfiles(path: String) async throws {
        let fixture = try HostileFixture()
        defer { fixture.remove() }
        let server = try fixture.base.server()
        defer { server.stop() }
        let response = try await exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(response.status == 404)
        #expect(!response.text.contains("SECRET") && !response.text.contains("[core]") && !response.text.contains("hidden"))
    }

    @Test("Response.file refuses what is not a regular file, without blocking")
    func responseFile() throws {
        let fixture = try HostileFixture()
        defer { fixture.remove() }
        fixture.unblockFIFOPastHang()
        #expect(Response.file(atPath: fixture.root.path + "/pipe.txt") == nil)
        // A blocking open would have waited for the rescue.
        #expect(fixture.rescues.count == 0, "the open of a FIFO blocked until the rescue")
        #expect(Response.file(atPath: "/dev/zero") == nil)
        #expect(Response.file(atPath: fixture.root.path + "/app.js") != nil)
    }
}
