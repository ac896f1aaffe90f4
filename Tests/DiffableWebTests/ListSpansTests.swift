import Foundation
import InMemoryTracing
import MicroHTTP
@testable import DiffableWeb
import Testing
import Tracing

/// A write's spans under the request that made it: request → list write → store save and
/// publish; none outside a traced request.
@Suite("List spans")
struct ListSpansTests {
    @Test("a traced request's write is a list write span with its save and its publication as children", arguments: [false, true])
    func writeSpans(saved: Bool) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try await makeApp { $0.stateDirectory = saved ? directory.path : nil }
        let created = await app.handle(Request(method: .post, target: "/api/sessions"))
        let id = try #require(created.json?["id"] as? String)
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Accept": "application/json"]
        let tracer = InMemoryTracer()
        let status = await withTracer(tracer) {
            await withSpan("POST /api/sessions/{id}/demos/{demo}/actions/{action}", ofKind: .server) { _ in
                await app.handle(Request(method: .post, target: "/api/sessions/\(id)/demos/numbers/actions/append", headers: headers, body: Array("{}".utf8))).status
            }
        }
        #expect(status == .ok)
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.kind == .server })
        let writes = spans.filter { $0.operationName == "list write" }
        let write = try #require(writes.first)
        #expect(writes.count == 1)
        #expect(write.parentSpanID == request.spanID)
        #expect(write.attributes["diffableweb.list"]?.toSpanAttribute() == .string("numbers"))
        let publish = try #require(spans.first { $0.operationName == "publish" })
        #expect(publish.parentSpanID == write.spanID)
        let saves = spans.filter { $0.operationName == "store save" }
        if saved {
            #expect(!saves.isEmpty)
            #expect(saves.allSatisfy { $0.parentSpanID == write.spanID })
        } else {
            #expect(saves.isEmpty, "memory only: nothing is saved")
        }
    }

    @Test("outside a traced request a write makes no span")
    func untraced() async throws {
        let app = try await makeApp()
        let created = await app.handle(Request(method: .post, target: "/api/sessions"))
        let id = try #require(created.json?["id"] as? String)
        let tracer = InMemoryTracer()
        let status = await withTracer(tracer) {
            await app.handle(Request(method: .post, target: "/api/sessions/\(id)/demos/numbers/actions/append",
                                     headers: ["Content-Type": "application/json"], body: Array("{}".utf8))).status
        }
        #expect(status == .ok)
        #expect(tracer.finishedSpans.isEmpty)
    }
}

/// A stream's first event under the request that opened it, over a real socket.
@Suite("List spans: streams", .stopsLiveServers)
struct LiveStreamSpansTests {
    @Test("a reconnection with Last-Event-ID is a stream replay span under its request's span")
    func replaySpan() async throws {
        let tracer = InMemoryTracer()
        let live = try await withTracer(tracer) { try await LiveServer.start() }
        let cookie = try await live.newSession("/demos/numbers")
        var first = try await live.events("/demos/numbers/events", cookie: cookie)
        let snapshot = try await next(&first)
        first.socket.close()
        _ = try await live.postJSON("/demos/numbers/actions/append", "{}", cookie: cookie)
        var again = try await live.events("/demos/numbers/events", cookie: cookie, lastEventID: snapshot.id)
        #expect(try await next(&again).name == "changeset")
        again.socket.close()

        let spans = tracer.finishedSpans
        let opens = spans.filter { $0.operationName == "stream open" }
        let replays = spans.filter { $0.operationName == "stream replay" }
        #expect(opens.count == 1 && replays.count == 1)
        let requests = spans.filter { $0.operationName == "GET /demos/{demo}/events" }
        #expect(requests.count == 2)
        let replay = try #require(replays.first)
        #expect(requests.contains { $0.spanID == replay.parentSpanID })
        #expect(replay.attributes["diffableweb.list"]?.toSpanAttribute() == .string("numbers"))
        // The action's write: request → list write → store save, publish.
        let write = try #require(spans.first { $0.operationName == "list write" })
        let action = try #require(spans.first { $0.spanID == write.parentSpanID })
        #expect(action.operationName == "POST /demos/{demo}/actions/{action}")
        await live.stop()
    }
}
