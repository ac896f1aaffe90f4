import CompositionalLayout
import DiffableDataSources
import Foundation
import HTTPTestSupport
import Synchronization
import Testing
@testable import DiffableWeb

/// A demo that does what the old write path could not take: its status and cells read the
/// list back through its handle (`openStreamCount` takes the list's state lock), and it
/// records whether the web layer ever asks it for a status while its action is still running.
final class ProbeDemo: Demo {
    static let descriptor = DemoDescriptor(
        name: "probe", title: "Probe", summary: "Reads its own list from status and cells", cellTemplates: ["cells/number"],
        actions: [ActionDescriptor(name: "append", description: "Append an item"),
                  ActionDescriptor(name: "keep", description: "Append an item and keep the transaction")],
        make: { ProbeDemo() })

    private struct State {
        var handle: ListHandle?
        var inAction = false
        var askedDuringAction = 0
        var next = 3
        var kept: ListTransaction?
    }
    private let state = Mutex(State())
    static let last = Mutex<ProbeDemo?>(nil)

    init() { Self.last.withLock { $0 = self } }

    var askedDuringAction: Int { state.withLock { $0.askedDuringAction } }
    var kept: ListTransaction? { state.withLock { $0.kept } }

    func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(["s"])
        try? snapshot.appendItems(["p1", "p2"])
        return snapshot
    }

    func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in LayoutSection.list(using: ListConfiguration(appearance: .plain), layoutEnvironment: environment) }
    }

    func attach(_ list: ListHandle) { state.withLock { $0.handle = list } }

    /// Reads the list back, as a demo may; counts a question asked while an action runs.
    private func readBack() -> Int {
        let handle = state.withLock { state -> ListHandle? in
            if state.inAction { state.askedDuringAction += 1 }
            return state.handle
        }
        return handle?.openStreamCount ?? 0
    }

    func cell(for item: String) -> CellContent? {
        CellContent(template: "cells/number", values: ["number": item, "label": "\(item), \(readBack()) watching"])
    }
    func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    func perform(_ action: String, parameters: ActionParameters, on list: ListTransaction) throws(ActionError) {
        state.withLock { $0.inAction = true }
        defer { state.withLock { $0.inAction = false } }
        let item = state.withLock { state in defer { state.next += 1 }; return "p\(state.next)" }
        var snapshot = list.snapshot()
        do { try snapshot.appendItems([item]) } catch { throw .snapshot(error) }
        list.apply(snapshot, animatingDifferences: true)
        if action == "keep" { state.withLock { $0.kept = list } }
    }

    func status(of snapshot: Snapshot<String, String>) -> String { "\(snapshot.numberOfItems) items, \(readBack()) watching" }
    func pageValues() -> [String: String] { [:] }
}

/// Issue 21, "one writer per list, events after the write": events are built once the write
/// has returned, with no lock of ours held while demo code runs, and a write's transaction is
/// its only handle to the data source, for as long as the write runs.
@Suite("Live writer: events after the write, demo code under no lock of ours, transactions that end", .serialized, .stopsLiveServers)
struct LiveWriterTests {
    @Test("a demo whose status and cells read its own list (openStreamCount) streams its changes; its status is asked after the action, never during it")
    func demoReadsItsListFromStatusAndCells() async throws {
        // Before: status and cells ran under the list's state lock, inside the action's apply;
        // openStreamCount takes the same lock, so the first change to a followed list hung.
        let live = try await LiveServer.start { $0.demos = [ProbeDemo.descriptor] }
        let cookie = try await live.newSession("/demos/probe")
        var stream = try await live.events("/demos/probe/events?width=600&height=800", cookie: cookie)
        let snapshot = try await next(&stream)
        #expect(snapshot.name == "snapshot")
        for seq in 1...3 {
            let answer = try await live.postJSON("/demos/probe/actions/append", #"{"seq":\#(seq)}"#, cookie: cookie)
            #expect(answer.status == 200)
            let change = try await next(&stream)
            #expect(change.name == "changeset")
            #expect(change.json["status"] as? String == "\(2 + seq) items, 1 watching", "\(change.data)")
        }
        let demo = try #require(ProbeDemo.last.withLock { $0 })
        #expect(demo.askedDuringAction == 0, "the status and cells are asked once the action has returned")
        stream.socket.close()
    }

    @Test("a transaction kept after its write changes nothing: no version, no event, no save")
    func keptTransactionIsOver() async throws {
        let live = try await LiveServer.start { $0.demos = [ProbeDemo.descriptor] }
        let cookie = try await live.newSession("/demos/probe")
        #expect(try await live.postJSON("/demos/probe/actions/keep", "{}", cookie: cookie).status == 200)
        let list = try #require(live.app.sessionList(cookie: cookie, demo: "probe"))
        let version = list.version
        let kept = try #require(ProbeDemo.last.withLock { $0 }?.kept)
        #expect(!kept.isOpen)
        var snapshot = kept.snapshot()
        try snapshot.appendItems(["outside"])
        #expect(kept.apply(snapshot) == nil, "an apply after the write is refused")
        #expect(list.version == version)
        #expect(!list.dataSource.snapshot().contains(item: "outside"))
    }
}
