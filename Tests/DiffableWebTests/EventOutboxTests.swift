import SeededRandom
import Synchronization
import Testing
@testable import DiffableWeb

/// The outbox releases each write's events once its change is saved, in the order the writes
/// were made, and never a write's whose save failed.
@Suite("EventOutbox: events in write order, once saved")
struct EventOutboxTests {
    final class Delivered: Sendable {
        let events = Mutex<[String]>([])
        var all: [String] { events.withLock { $0 } }
    }

    func outbox() -> (EventOutbox<String>, Delivered) {
        let delivered = Delivered()
        return (EventOutbox<String> { events in delivered.events.withLock { $0.append(contentsOf: events) } }, delivered)
    }

    @Test("a write saved before the one made earlier waits for it")
    func savedOutOfOrder() {
        let (outbox, delivered) = outbox()
        let first = outbox.hold(), second = outbox.hold()
        outbox.fill(first, with: ["1a", "1b"])
        outbox.fill(second, with: ["2"])
        outbox.ready(second)
        #expect(delivered.all.isEmpty, "the first write is not saved yet")
        outbox.ready(first)
        #expect(delivered.all == ["1a", "1b", "2"])
        #expect(outbox.waiting == 0)
    }

    @Test("a write whose save failed sends nothing, and lets the later ones go")
    func discarded() {
        let (outbox, delivered) = outbox()
        let first = outbox.hold(), second = outbox.hold()
        outbox.fill(first, with: ["lost"])
        outbox.fill(second, with: ["kept"])
        outbox.ready(second)
        outbox.discard(first)
        #expect(delivered.all == ["kept"])
    }

    @Test("events that need no save go at once when nothing waits, else after the writes before them")
    func immediate() {
        let (outbox, delivered) = outbox()
        outbox.send(["window-1"])
        #expect(delivered.all == ["window-1"])
        let write = outbox.hold()
        outbox.fill(write, with: ["change"])
        outbox.send(["window-2"])
        #expect(delivered.all == ["window-1"], "a window event never overtakes a change made before it")
        outbox.ready(write)
        #expect(delivered.all == ["window-1", "change", "window-2"])
    }

    @Test("a write that had nothing to tell still holds its place until it is saved")
    func emptyWrite() {
        let (outbox, delivered) = outbox()
        let empty = outbox.hold(), next = outbox.hold()
        outbox.fill(next, with: ["next"])
        outbox.ready(next)
        #expect(delivered.all.isEmpty)
        outbox.ready(empty)
        #expect(delivered.all == ["next"])
    }

    @Test("random saves and failures: delivered events are exactly the saved writes', in write order",
          arguments: 0..<20)
    func randomOrder(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed + 1))
        let (outbox, delivered) = outbox()
        let count = Int.random(in: 1...30, using: &random)
        let tickets = (0..<count).map { index in
            let ticket = outbox.hold()
            outbox.fill(ticket, with: ["\(index)"])
            return (index, ticket)
        }
        var saved: [Int] = []
        for (index, ticket) in tickets.shuffled(using: &random) {
            if Bool.random(using: &random) {
                outbox.ready(ticket)
                saved.append(index)
            } else {
                outbox.discard(ticket)
            }
        }
        #expect(delivered.all == saved.sorted().map { "\($0)" })
        #expect(outbox.waiting == 0)
    }
}
