import MicroHTTP
import Synchronization

// The outbox: each write's events, released in version order once its change is saved,
// then delivered to their streams.
extension LiveList {
    /// Takes a place in the outbox for the events of the write about to run (they collect in
    /// ``PendingWrites/sends`` while it runs).
    func hold() -> Int {
        outbox.withLock { outbox in
            defer { outbox.next += 1 }
            outbox.entries.append((outbox.next, [], false))
            return outbox.next
        }
    }

    /// Moves the running write's events under its ticket (in the writer: the next write's
    /// events are not made yet).
    func seal(_ ticket: Int) {
        let sends = pending.withLock { pending in defer { pending.sends.removeAll() }; return pending.sends }
        guard !sends.isEmpty else { return }
        outbox.withLock { outbox in
            if let index = outbox.entries.firstIndex(where: { $0.ticket == ticket }) {
                outbox.entries[index].sends.append(contentsOf: sends)
            }
        }
    }

    /// The write's change is saved: its events may go, after every earlier write's.
    func markReady(_ ticket: Int) {
        outbox.withLock { outbox in
            if let index = outbox.entries.firstIndex(where: { $0.ticket == ticket }) { outbox.entries[index].ready = true }
            flush(&outbox)
        }
    }

    /// ``seal(_:)`` and ``markReady(_:)``, in the writer.
    func release(_ ticket: Int) {
        seal(ticket)
        markReady(ticket)
    }

    /// The write's change was not saved: its events are dropped.
    func discard(_ ticket: Int) {
        outbox.withLock { outbox in
            outbox.entries.removeAll { $0.ticket == ticket }
            flush(&outbox)
        }
    }

    /// Sends events that need no save (a stream's first event, a moved window): at once, or
    /// after the writes still being saved.
    func send(_ sends: [Send]) {
        guard !sends.isEmpty else { return }
        outbox.withLock { outbox in
            if outbox.entries.isEmpty {
                deliver(sends)
            } else {
                outbox.entries.append((outbox.next, sends, true))
                outbox.next += 1
            }
        }
    }

    /// Delivers the ready events at the head of the outbox (under its lock: in order).
    private func flush(_ outbox: inout Outbox) {
        while let first = outbox.entries.first, first.ready {
            outbox.entries.removeFirst()
            deliver(first.sends)
        }
    }

    /// Sends outside the state lock (the outbox keeps the order); drops streams that closed.
    private func deliver(_ sends: [Send]) {
        var gone: [ObjectIdentifier] = []
        for send in sends where !send.stream.send(event: send.name, id: send.id, data: send.data) {
            gone.append(ObjectIdentifier(send.stream))
        }
        guard !gone.isEmpty else { return }
        let (count, closed) = state.withLock { state -> (Int, [String]) in
            var closed: [String] = []
            for key in gone {
                if let follower = state.followers.removeValue(forKey: key) {
                    state.byStreamID[follower.id] = nil
                    closed.append(follower.id)
                }
            }
            return (state.followers.count, closed)
        }
        guard !closed.isEmpty else { return }
        demo.streamCountDidChange(count)
        reportClosed(closed)
    }
}
