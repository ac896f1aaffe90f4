import CompositionalLayout
import DiffableDataSources
import Synchronization

/// A list's layouts of one version, by viewport: a page, a stream's window and an event for
/// the same viewport share one. Laying out runs outside the cache's lock (it asks the demo for
/// its layout); at most 8 viewports are kept.
///
/// An idle list keeps none: ``dropIfIdle()`` (every maintenance round, a heartbeat interval)
/// forgets the layouts of a list that nobody laid out or read since the previous call, and the
/// next use lays it out again
/// (once, after at least a heartbeat interval of quiet). An idle Mountains session with one
/// stream held two (its page's viewport and its stream's), ~1.2 KiB each. A cache that comes to
/// hold layouts tells `held`, which the rounds visit (not every list).
final class LayoutCache: Sendable {
    private struct Entries {
        var version = -1
        var layouts: [LayoutContainer: ListLayout] = [:]
        /// A layout was asked for since the last ``dropIfIdle()``.
        var used = false
    }
    private let entries = Mutex(Entries())
    private let held: HeldLayouts?

    init(held: HeldLayouts? = nil) {
        self.held = held
    }

    /// The layout of `snapshot` (the list at `version`) for `container`: cached, or made by
    /// `make` and kept. A cached layout counts only for the same snapshot (an undone write's
    /// version number is used again by another snapshot: ``removeAll()``) and the same
    /// measurements (`measuredGeneration`: a browser's measurement lays the list out again).
    func layout(version: Int, snapshot: Snapshot<String, String>, container: LayoutContainer, measuredGeneration: Int,
                make: () -> ListLayout) -> ListLayout {
        let cached = entries.withLock { entries -> ListLayout? in
            entries.used = true
            return entries.version == version ? entries.layouts[container] : nil
        }
        if let cached, cached.snapshot.isIdentical(to: snapshot), cached.measuredGeneration == measuredGeneration { return cached }
        let layout = make()
        let began = entries.withLock { entries -> Bool in
            let wasEmpty = entries.layouts.isEmpty
            if entries.version != version {
                guard version > entries.version else { return false }  // an older version's: not kept
                entries.layouts.removeAll(keepingCapacity: true)
                entries.version = version
            }
            if entries.layouts.count >= 8 { entries.layouts.removeAll(keepingCapacity: true) }
            entries.layouts[container] = layout
            return wasEmpty
        }
        if began { held?.holding(self) }
        return layout
    }

    /// Gives the cached layouts of `width` that were made with the measurements of generation
    /// `previous` the new ones, in place (``ListLayout/applyMeasurements(_:table:)``: O(k log n)
    /// each); the others are made afresh when next asked for (their generation is stale).
    func applyMeasurements(width: Double, previous: Int, _ sizes: [(id: String, size: LayoutPixelSize)], table: MeasuredSizes.Table) {
        entries.withLock { entries in
            for container in Array(entries.layouts.keys) where container.width == width {
                // Taken out while it changes, so that the cache does not hold a second copy.
                guard var layout = entries.layouts.removeValue(forKey: container) else { continue }
                guard layout.measuredGeneration == previous else { continue }
                layout.applyMeasurements(sizes, table: table)
                entries.layouts[container] = layout
            }
        }
    }

    /// Forgets every layout (a write was undone: its version number will be used again).
    func removeAll() {
        entries.withLock { $0 = Entries() }
    }

    /// Forgets the layouts when none was asked for since the previous call (the list is idle).
    /// - Returns: how many were dropped.
    @discardableResult
    func dropIfIdle() -> Int {
        entries.withLock { entries in
            defer { entries.used = false }
            guard !entries.used, !entries.layouts.isEmpty else { return 0 }
            let dropped = entries.layouts.count
            entries = Entries()
            return dropped
        }
    }

    /// The layouts kept now.
    var count: Int { entries.withLock { $0.layouts.count } }
}
