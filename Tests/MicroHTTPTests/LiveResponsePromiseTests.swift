import Foundation
import HTTPTestSupport
@testable import MicroHTTP
import Synchronization
import Testing

/// A handler's promised response (`ResponsePromise`): sent once another thread gives it, with
/// no task of the handler's waiting; a stop waits for it like any request in flight.
@Suite("Live promised responses: answered from the thread that gives them")
struct LiveResponsePromiseTests {
    /// Promises handed out by the handler, for the test to fulfil.
    final class Promises: Sendable {
        private let given = Mutex<[ResponsePromise]>([])
        /// Promises handed out so far: `await promises.handedOut.wait(for: n)`.
        let handedOut = CountSignal()
        func add(_ promise: ResponsePromise) {
            given.withLock { $0.append(promise) }
            handedOut.signal()
        }
        func take() -> ResponsePromise? { given.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
        var first: ResponsePromise? { given.withLock { $0.first } }
    }

    func server(_ promises: Promises) throws -> HTTPServer {
        try startServer { request in
            switch request.path {
            case "/later":
                let promise = ResponsePromise()
                promises.add(promise)
                // Headers of the promised response are its own: this placeholder's go nowhere.
                return Response(status: .accepted, headers: ["X-Placeholder": "1"], body: .promised(promise))
            case "/mapped":
                let promise = ResponsePromise()
                promises.add(promise)
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
        async let answer = get(port: server.port, "/later")
        #expect(await promises.handedOut.wait(for: 1))
        let promise = try #require(promises.first)
        // Given once the server waits for it, so that the response goes out from the giving
        // thread. The server takes the promise right after the handler returns, with no signal.
        #expect(await eventually("the server takes the promise the handler returned") { promise.isAwaited })
        Thread.detachNewThread { promises.take()?.fulfil(.text("given", status: .created)) }
        let response = try await answer
        #expect(response.status == 201)
        #expect(response.text == "given")
        #expect(response.header("X-Placeholder") == nil)
        #expect(try await get(port: server.port, "/hello").status == 200)
        #expect(await server.countsReach { $0.connections == 0 })
    }

    @Test("a mapped promise sends the transform of what is given")
    func mapped() async throws {
        let promises = Promises()
        let server = try server(promises)
        defer { server.stop() }
        async let answer = get(port: server.port, "/mapped")
        #expect(await promises.handedOut.wait(for: 1))
        promises.take()?.fulfil(.text("mapped"))
        let response = try await answer
        #expect(response.text == "mapped")
        #expect(response.header("Set-Cookie")?.hasPrefix("seen=1") == true)
    }

    @Test("a graceful stop waits for a promised response in flight, and it is sent")
    func stopWaits() async throws {
        let promises = Promises()
        let server = try server(promises)
        async let answer = exchange(port: server.port, "GET /later HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(await promises.handedOut.wait(for: 1))
        // The grace period is the hang guard: the stop may end only once the response is given.
        async let report = server.shutdown(gracePeriod: Patience.hang)
        // A stop that forgot the promise would stop the server at once. That it does not is an
        // absence, which no event shows: this sleep is the time such a stop is given. A busy
        // machine can only hide that fault, never fail a stop that waits.
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
