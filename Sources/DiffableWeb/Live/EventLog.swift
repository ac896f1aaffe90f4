/// Identifies an event on the stream: the snapshot version, and for layout events the
/// n-th layout since that version (`"12"`, `"12.3"`).
struct EventID: Comparable, Hashable, Sendable, CustomStringConvertible {
    var version: Int
    var layout: Int

    init(version: Int, layout: Int = 0) {
        self.version = version
        self.layout = layout
    }

    /// Parses `Last-Event-ID`; `nil` for anything malformed.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let version = Int(parts[0]), version >= 0 else { return nil }
        var layout = 0
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), parsed >= 0 else { return nil }
            layout = parsed
        }
        self.init(version: version, layout: layout)
    }

    var description: String { layout == 0 ? "\(version)" : "\(version).\(layout)" }

    static func < (lhs: EventID, rhs: EventID) -> Bool { (lhs.version, lhs.layout) < (rhs.version, rhs.layout) }
}

/// One event as sent on the stream.
struct LoggedEvent: Sendable {
    var id: EventID
    var name: String
    var data: String
}

/// The last few events of one list, so a reconnecting client can catch up. Bounded in
/// count and in bytes (one event beyond the byte budget is kept): a client that missed more
/// gets a fresh snapshot, which is what it would need anyway.
struct EventLog: Sendable {
    private(set) var events: [LoggedEvent] = []
    let capacity: Int
    let byteBudget: Int
    private var bytes = 0

    init(capacity: Int, byteBudget: Int = 2 << 20) {
        self.capacity = max(1, capacity)
        self.byteBudget = byteBudget
    }

    mutating func append(_ event: LoggedEvent) {
        events.append(event)
        bytes += event.data.utf8.count
        var drop = 0
        while events.count - drop > capacity || (bytes > byteBudget && events.count - drop > 1) {
            bytes -= events[drop].data.utf8.count
            drop += 1
        }
        if drop > 0 { events.removeFirst(drop) }
    }

    var latest: EventID? { events.last?.id }

    /// The events after `id`, or `nil` when `id` is not in the log (too old, unknown, or from
    /// the future): the client must then start again from a snapshot.
    func events(after id: EventID) -> [LoggedEvent]? {
        guard let index = events.lastIndex(where: { $0.id == id }) else { return nil }
        return Array(events[(index + 1)...])
    }
}
