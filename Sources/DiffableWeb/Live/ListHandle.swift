import DiffableDataSources

/// A demo's way to change its list when no request asks it to: a finished image load, a
/// publisher's timer, the next page of a paginated list.
///
/// Given to ``Demo/attach(_:)`` once, when the list is made. Writes go through the list's one
/// serialized writer, like actions and API calls, so they are applied and streamed in order
/// with everything else. The handle does not keep the list alive: once the session is gone,
/// writes do nothing and return `false`.
public final class ListHandle: Sendable {
    private weak let list: LiveList?

    init(_ list: LiveList) { self.list = list }

    /// Runs `body` alone among the list's writers, with the write's transaction (apply there;
    /// it is over once `body` returns).
    /// - Returns: `false` when the list is gone (nothing ran), or the write failed: an apply
    ///   that would pass the list limits (100,000 items, 1,000 sections) changes nothing.
    @discardableResult
    public func write(_ body: @escaping @Sendable (ListTransaction) -> Void) async -> Bool {
        guard let list else { return false }
        return (try? await list.exclusive { body($0) }) != nil
    }

    /// Streams following the list now.
    public var openStreamCount: Int { list?.openStreamCount ?? 0 }

    /// Whether the list still exists (its session has not expired).
    public var isAlive: Bool { list != nil }
}

/// What one stream's window shows after it opened, moved or followed a change: see
/// ``Demo/windowDidChange(_:)``.
public struct WindowItems: Sendable, Equatable {
    /// The stream whose window this is (a list may have several, one per tab). A stream that
    /// closed reports an empty window.
    public var stream: String
    /// The items in the window (the viewport plus one screen above and below), in no order.
    public var items: [String]
    /// The largest position (over all sections) among them, or `nil` when the window holds none.
    public var lastPosition: Int?
    /// Items in the snapshot.
    public var itemCount: Int

    public init(stream: String, items: [String], lastPosition: Int?, itemCount: Int) {
        self.stream = stream
        self.items = items
        self.lastPosition = lastPosition
        self.itemCount = itemCount
    }
}
