import Synchronization

/// Events waiting for their writes to be saved, released in the order the writes were made.
///
/// A write takes a ticket before it runs (``hold()``), puts its events under it once they are
/// built (``fill(_:with:)``), and marks it ready once its change is saved (``ready(_:)``), or
/// discards it when the save failed: nobody is told of a change that is not saved. Whatever
/// is ready at the head goes out, in ticket order, so a write saved early waits for the writes
/// before it. Events that need no save (a stream's first event, a moved window) go out at once,
/// or after the writes still being saved (``send(_:)``).
///
/// Delivery runs under the outbox's lock, which is what keeps the order; `deliver` must not
/// call back into the outbox.
final class EventOutbox<Event: Sendable>: Sendable {
    struct Ticket: Hashable, Sendable { fileprivate let value: Int }

    private struct State {
        var entries: [(ticket: Int, events: [Event], ready: Bool)] = []
        var next = 0
    }
    private let state = Mutex(State())
    private let deliver: @Sendable ([Event]) -> Void

    init(deliver: @escaping @Sendable ([Event]) -> Void) {
        self.deliver = deliver
    }

    /// A place for the events of the write about to run.
    func hold() -> Ticket {
        state.withLock { state in
            defer { state.next += 1 }
            state.entries.append((state.next, [], false))
            return Ticket(value: state.next)
        }
    }

    /// Puts a write's events under its ticket.
    func fill(_ ticket: Ticket, with events: [Event]) {
        guard !events.isEmpty else { return }
        state.withLock { state in
            if let index = state.entries.firstIndex(where: { $0.ticket == ticket.value }) {
                state.entries[index].events.append(contentsOf: events)
            }
        }
    }

    /// The write is saved: its events go, after every earlier write's.
    func ready(_ ticket: Ticket) {
        state.withLock { state in
            if let index = state.entries.firstIndex(where: { $0.ticket == ticket.value }) { state.entries[index].ready = true }
            flush(&state)
        }
    }

    /// The write was not saved (or changed nothing to tell): its events are dropped.
    func discard(_ ticket: Ticket) {
        state.withLock { state in
            state.entries.removeAll { $0.ticket == ticket.value }
            flush(&state)
        }
    }

    /// Sends events that need no save: at once, or after the writes still being saved.
    func send(_ events: [Event]) {
        guard !events.isEmpty else { return }
        state.withLock { state in
            if state.entries.isEmpty {
                deliver(events)
            } else {
                state.entries.append((state.next, events, true))
                state.next += 1
            }
        }
    }

    /// Drops everything waiting (the list is retired).
    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// Writes waiting for their save.
    var waiting: Int { state.withLock { $0.entries.count } }

    private func flush(_ state: inout State) {
        while let first = state.entries.first, first.ready {
            state.entries.removeFirst()
            deliver(first.events)
        }
    }
}
