import Logging
import Testing
@testable import MicroHTTP

/// The deadline sweep reads the clock before it takes the registry's lock; a connection that
/// starts in between has a later clock than the sweep's `now`, and is not overdue.
@Suite("Deadline sweep")
struct DeadlineSweepTests {
    static func core() throws -> ServerCore {
        let watcher = try #require(HangupWatcher())
        return ServerCore(handler: { _ in .text("ok") }, immediateHandler: nil, logger: Logger(label: "sweep-test"),
                          limits: Limits(requestHeadDeadline: .seconds(1), requestBodyDeadline: .seconds(3)), watcher: watcher)
    }

    @Test("a connection that started after the sweep read the clock is not cut; one past its head deadline is")
    func laterClockIsNotOverdue() throws {
        let core = try Self.core()
        let before = monotonicNanoseconds()
        let id = core.connectionStarted(socket: -1)
        // The sweep's clock, read before the connection started.
        #expect(core.cutOverdueConnections(now: before &- 1_000) == 0, "a fresh connection was cut as overdue")
        #expect(core.cutOverdueConnections(now: before + 500_000_000) == 0, "within its deadline")
        #expect(core.cutOverdueConnections(now: before + 2_000_000_000) == 1, "past its head deadline")
        _ = core.connectionClosed(id: id)

        // A kept-alive connection awaits its next head from the end of its last response.
        let other = core.connectionStarted(socket: -1)
        core.headReceived(connectionID: other)
        core.setRequestComplete(true, connectionID: other)
        let answered = monotonicNanoseconds()
        core.setRequestComplete(false, connectionID: other)
        #expect(core.cutOverdueConnections(now: answered &- 1_000) == 0, "a kept-alive connection was cut as overdue")
        #expect(core.cutOverdueConnections(now: answered + 2_000_000_000) == 1)
    }
}
