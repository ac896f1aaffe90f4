import Synchronization

/// One copy of each window that streams hold alike.
///
/// Every follower keeps what its client holds (``Followers/Follower/held``: the window's cells,
/// id → frame). Sessions that open the same list at the same viewport (every fresh Mountains
/// session with the empty query, at a common screen size) hold equal windows; built cell by
/// cell, each was its own dictionary: ~6 KiB for the 86 cells of a 1024×768 window, a fifth of
/// what an idle session with one stream cost. ``intern(_:signature:)`` hands back the copy
/// already kept when an equal one is (its storage is shared, copy-on-write: a follower that
/// moves its window gets its own again). Windows made for shared search steps are shared
/// already (``TransitionCache``).
///
/// Bounded: at most ``capacity`` windows, forgotten all at once when full (a window still held
/// by a follower stays alive there; only the sharing of later equal ones is lost).
/// - Complexity: `intern` is O(cells) (one comparison with the kept window of the same signature).
final class HeldWindows: Sendable {
    static let shared = HeldWindows()

    let capacity: Int
    private let windows = Mutex<[Int: [String: WireFrame]]>([:])

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The kept window equal to `held` (whose signature is `signature`), or `held`, kept now.
    func intern(_ held: [String: WireFrame], signature: Int) -> [String: WireFrame] {
        guard !held.isEmpty else { return held }
        return windows.withLock { windows in
            if let kept = windows[signature], kept == held { return kept }
            if windows.count >= capacity { windows.removeAll(keepingCapacity: true) }
            windows[signature] = held
            return held
        }
    }

    /// Windows kept now.
    var count: Int { windows.withLock { $0.count } }
}
