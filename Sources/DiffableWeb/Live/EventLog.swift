import DequeModule
import MicroHTTP

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

/// Which run of events an id belongs to: a random tag, new for every list (a new session, a
/// session evicted and made again, a server restart). On the wire an event id is
/// `<epoch>-<version>[.<layout>]`, so a `Last-Event-ID` from another list's run never matches
/// this list's log by accident: the client gets a fresh `snapshot` instead of events that
/// would land on top of cells it never had.
struct ListEpoch: Hashable, Sendable, CustomStringConvertible {
    let value: String

    /// 48 random bits as 12 hex digits.
    static func random() -> ListEpoch { ListEpoch(value: RandomHex.digits(12)) }

    init(value: String) { self.value = value }

    var description: String { value }

    /// The id as sent on the stream.
    func wire(_ id: EventID) -> String { "\(value)-\(id)" }

    /// The id of a `Last-Event-ID` sent back by a client, if it is of this epoch; `nil` for
    /// another epoch, the old bare form, or anything malformed.
    func parse(_ text: String) -> EventID? {
        guard text.utf8.count > value.utf8.count + 1, text.hasPrefix(value),
              text.utf8.dropFirst(value.utf8.count).first == UInt8(ascii: "-") else { return nil }
        return EventID(String(text.dropFirst(value.count + 1)))
    }
}

/// One event as sent on the stream.
struct LoggedEvent: Sendable {
    var id: EventID
    var name: String
    /// Its data, sharing the identifiers' bytes with the event that was sent (not a copy).
    var data: EventData

    init(id: EventID, name: String, data: EventData) {
        self.id = id
        self.name = name
        self.data = data
    }

    init(id: EventID, name: String, data: String) { self.init(id: id, name: name, data: EventData(data)) }
}

/// The last few events of one list, so a reconnecting client can catch up. Bounded in
/// count and in bytes (one event beyond the byte budget is kept): a client that missed more
/// gets a fresh snapshot, which is what it would need anyway. The events are identifiers only
/// (the windows are per stream), and the budget is 512 KiB a list: a thousand sessions that
/// typed cannot hold more than half a gigabyte of replay between them.
struct EventLog: Sendable {
    /// Oldest first. A deque: once the log is full, every event appended drops the oldest, and
    /// that must not move the others.
    private(set) var events: Deque<LoggedEvent> = []
    let capacity: Int
    let byteBudget: Int
    private var bytes = 0

    init(capacity: Int, byteBudget: Int = 512 << 10) {
        self.capacity = max(1, capacity)
        self.byteBudget = byteBudget
    }

    mutating func append(_ event: LoggedEvent) {
        events.append(event)
        bytes += event.data.byteCount
        var drop = 0
        while events.count - drop > capacity || (bytes > byteBudget && events.count - drop > 1) {
            bytes -= events[drop].data.byteCount
            drop += 1
        }
        if drop > 0 { events.removeFirst(drop) }
    }

    var latest: EventID? { events.last?.id }

    /// The bytes of the events' data (what the log holds, for its session's memory account).
    var byteCount: Int { bytes }

    /// The events after `id`, or `nil` when `id` is not in the log (too old, unknown, or from
    /// the future): the client must then start again from a snapshot.
    func events(after id: EventID) -> [LoggedEvent]? {
        guard let index = events.lastIndex(where: { $0.id == id }) else { return nil }
        return Array(events[(index + 1)...])
    }
}
