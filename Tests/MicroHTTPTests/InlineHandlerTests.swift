import Foundation
import Synchronization
import HTTPTestSupport
@testable import MicroHTTP
import Testing

/// A handler runs on libmicrohttpd's thread until it waits for another thread
/// (`InlineTaskExecutor`), and is answered from wherever it ends.
@Suite("Handlers run inline until they wait")
struct InlineHandlerTests {
    /// The name the calling thread was given (libmicrohttpd's pool threads: `MHD-worker`).
    private static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private actor Counter {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    /// A server that runs inline the requests whose path does not start with `/pool`.
    private static func server(threads: Int = 2, _ handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: threads)
        configuration.runsInline = { !$0.path.hasPrefix("/pool") }
        let server = try HTTPServer(configuration: configuration, logger: quietLogger, handler: handler)
        try server.start()
        return server
    }

    @Test("a handler that only hops between actors runs on libmicrohttpd's thread from start to answer")
    func neverWaits() async throws {
        let counter = Counter()
        let server = try Self.server { _ in
            let before = Self.threadName()
            let count = await counter.next()  // a default actor's code, on the task's executor
            let after = Self.threadName()
            return .text("\(before) \(count) \(after)")
        }
        defer { server.stop() }
        for expected in 1...3 {
            let response = try await get(port: server.port, "/")
            #expect(response.status == 200)
            #expect(response.text == "MHD-worker \(expected) MHD-worker")
        }
    }

    @Test("a request the configuration does not pick runs on the cooperative pool")
    func notPicked() async throws {
        let server = try Self.server { _ in .text(Self.threadName()) }
        defer { server.stop() }
        let pooled = try await get(port: server.port, "/pool/a")
        #expect(pooled.status == 200 && !pooled.text.hasPrefix("MHD-"), "\(pooled.text)")
        let inline = try await get(port: server.port, "/a")
        #expect(inline.status == 200 && inline.text == "MHD-worker")
    }

    @Test("a waiting handler frees libmicrohttpd's thread, and is answered from the thread it ends on")
    func waitsOffThread() async throws {
        let reached = CountSignal()
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let server = try Self.server(threads: 1) { request in
            guard request.path == "/wait" else { return .text("quick") }
            let before = Self.threadName()
            await withCheckedContinuation { continuation in
                gate.withLock { $0 = continuation }
                reached.signal()
            }
            return .text("\(before) \(Self.threadName().hasPrefix("MHD-"))")
        }
        defer { server.stop() }
        async let waiting = get(port: server.port, "/wait")
        #expect(await reached.wait(for: 1))
        // The only libmicrohttpd thread answers another request while the first one waits.
        #expect(try await get(port: server.port, "/quick").text == "quick")
        gate.withLock { $0?.resume() }
        let answer = try await waiting
        #expect(answer.status == 200)
        let words = answer.text.split(separator: " ").map(String.init)
        #expect(words.first?.hasPrefix("MHD-") == true, "started on libmicrohttpd's thread: \(answer.text)")
        #expect(words.last == "false", "ended on a Dispatch thread: \(answer.text)")
    }

    @Test("many handlers waiting for other threads at once each get their own answer")
    func manyWaiting() async throws {
        let server = try Self.server { request in
            let resumedBy = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                Thread { continuation.resume(returning: request.path) }.start()
            }
            return .text(resumedBy)
        }
        defer { server.stop() }
        let responses = try await withThrowingTaskGroup(of: (Int, HTTPResponse).self) { group in
            for index in 0..<48 {
                group.addTask { (index, try await get(port: server.port, "/r\(index)")) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(responses.count == 48)
        for (index, response) in responses {
            #expect(response.status == 200 && response.text == "/r\(index)")
        }
    }
}
