import Foundation
import HTTPTestSupport
import MicroHTTP
import Synchronization
import Testing

/// A handler's promised response (`ResponsePromise`): sent once another thread gives it, with
/// no task of the handler's waiting; a stop waits for it like any request in flight.
@Suite("Live promised responses: answered from the thread that gives them")
struct LiveResponsePromiseTests {
    /// Promises handed out by the handler, for the test to fulfil.
    final class Promises: Sendable {
        let given = Mutex<[ResponsePromise]>([])
        func take() -> ResponsePromise? { given.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        var count: Int { given.withLock { $0.count } }
    }

    func server(_ promises: Promises) throws -> HTTPServer {
        try startServer { request in
            switch request.path {
            case "/later":
                let promise = ResponsePromise()
                promises.given.withLock { $0.append(promise) }
                // Headers of the promised response are its own: this placeholder's go nowhere.
                return Response(status: .accepted, headers: ["X-Placeholder": "1"], body: .promised(promise))
            case "/mapped":
                let promise = ResponsePromise()
                promises.given.withLock { $0.append(promise) }
                return Response.promised(promise).mapSettled { $0.settingCookie(SetCookie(name: "seen", value: "1")) }
            default:
                return .text("hello")
            }
        }
    }

    @Test("the response given on another thread is the one sent, with its own status and headers; the connection serves the next request")
    func givenElsewhere() async throws {
        let promises = Promises()
        let server = try server(promises)
        defer { server.stop() }
        async let answer = get(port: server.port, "/later", timeout: 20)
        #expect(await eventually(timeout: .seconds(10)) { promises.count == 1 })
        try await Task.sleep(for: .milliseconds(100))
        Thread.detachNewThread { promises.take()?.fulfil(.text("given", status: .created)) }
        let response = try await answer
        #expect(response.status == 201)
        #expect(response.text == "given")
        #expect(response.header("X-Placeholder") == nil)
        #expect(try await get(port: server.port, "/hello").status == 200)
        #expect(await eventually { server.openConnectionCount == 0 })
    }

    @Test("a mapped promise sends the transform of what is given")
    func mapped() async throws {
        let promises = Promises()
        let server = try server(promises)
        defer { server.stop() }
        async let answer = get(port: server.port, "/mapped", timeout: 20)
        #expect(await eventually(timeout: .seconds(10)) { promises.count == 1 })
        promises.take()?.fulfil(.text("mapped"))
        let response = try await answer
        #expect(response.text == "mapped")
        #expect(response.header("Set-Cookie")?.hasPrefix("seen=1") == true)
    }

    @Test("a graceful stop waits for a promised response in flight, and it is sent")
    func stopWaits() async throws {
        let promises = Promises()
        let server = try server(promises)
        async let answer = exchange(port: server.port, "GET /later HTTP/1.1\r\nHost: t\r\n\r\n", timeout: 20)
        #expect(await eventually(timeout: .seconds(10)) { promises.count == 1 })
        async let report = server.shutdown(gracePeriod: .seconds(15))
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.isRunning, "still waiting for the promised response")
        promises.take()?.fulfil(.text("late but sent"))
        let response = try await answer
        #expect(response.status == 200 && response.text == "late but sent")
        #expect(await report.requestsCut == 0)
    }

    @Test("the first response given counts; a waiter added after it gets it at once")
    func firstCounts() async {
        let promise = ResponsePromise()
        promise.fulfil(.text("first"))
        promise.fulfil(.text("second"))
        let settled = await Response.promised(promise).settled
        #expect(settled.body.text == "first")
    }
}

private extension Response.Body {
    var text: String? {
        if case .bytes(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }
}
