import MicroHTTP

/// The streams following a list, each with what its client holds: found by stream (its close
/// handler) and by the id its client names (`POST …/viewport`).
struct Followers: Sendable {
    /// A stream and what its client holds.
    struct Follower: Sendable {
        let stream: EventStream
        let id: String
        var window: StreamWindow
        var held: [String: WireFrame] = [:]
        var signature = 0
        /// The newest version the client has; older events are not sent to it.
        var version: Int
        /// The content size its client was last sent (every `snapshot`, `changeset` and
        /// `window` event states it): a change of it alone is worth a `window` event, so that
        /// the client's scrollbar is always exact.
        var contentSize: WireSize? = nil
    }

    typealias Key = ObjectIdentifier

    /// In the order they came. A list has a few followers (a session's tabs; a script's): an
    /// array costs one small allocation, where tables by stream and by id cost two larger ones
    /// for every idle list, and a search of a few is as quick as a hash.
    private(set) var all: [Follower] = []

    var count: Int { all.count }
    var isEmpty: Bool { all.isEmpty }

    subscript(stream: EventStream) -> Follower? { index(of: Key(stream)).map { all[$0] } }

    /// The follower whose client names itself `streamID`.
    func follower(streamID: String) -> Follower? { all.first { $0.id == streamID } }

    /// Adds a follower, or updates one still following (a stream that closed meanwhile is not
    /// brought back by an update: see ``update(_:)``).
    mutating func insert(_ follower: Follower) {
        if let index = index(of: Key(follower.stream)) { all[index] = follower } else { all.append(follower) }
    }

    /// Takes what a follower holds now, if it still follows. - Returns: whether it does.
    @discardableResult
    mutating func update(_ follower: Follower) -> Bool {
        guard let index = index(of: Key(follower.stream)) else { return false }
        all[index] = follower
        return true
    }

    /// Takes what each of `other`'s followers holds now, for those that still follow (`other`
    /// is a copy of these followers, changed since): one pass, as both keep the same order.
    mutating func update(from other: Followers) {
        var next = 0
        for follower in other.all {
            let key = Key(follower.stream)
            var index = next
            while index < all.count, Key(all[index].stream) != key { index += 1 }
            guard index < all.count else { continue }  // closed meanwhile
            all[index] = follower
            next = index + 1
        }
    }

    /// Replaces the follower at `index` of ``all`` (the same stream, with what it holds now).
    mutating func replace(at index: Int, with follower: Follower) {
        precondition(Key(all[index].stream) == Key(follower.stream), "a follower replaced by another stream's")
        all[index] = follower
    }

    /// Forgets a stream. - Returns: its follower, if it was one.
    @discardableResult
    mutating func remove(_ stream: EventStream) -> Follower? {
        guard let index = index(of: Key(stream)) else { return nil }
        return all.remove(at: index)
    }

    /// Forgets every stream. - Returns: their followers.
    mutating func removeAll() -> [Follower] {
        defer { all = [] }
        return all
    }

    private func index(of key: Key) -> Int? {
        all.firstIndex { Key($0.stream) == key }
    }
}
