import CompositionalLayout

/// The sizes browsers measured for a list's self-sizing cells (UIKit's
/// `preferredLayoutAttributesFitting`), by container width: a cell's height depends on the
/// width it is laid out in, so a phone's measurements never stand in for a desktop's.
///
/// Items are named as on the wire (by identifier), so a measurement follows its item through
/// inserts and moves (of other items, or of the item itself); a write that deletes an item
/// drops its sizes (``forget(_:)``: an item inserted again later starts at its estimate, as a
/// new cell does in UIKit). Cells nobody measured keep their estimates. Bounded: at most
/// ``maximumWidths`` widths (the one measured least recently is forgotten) and
/// ``maximumCells`` cells per width (past it, the oldest half is forgotten: those cells fall
/// back to their estimates until a browser shows them again).
struct MeasuredSizes: Sendable {
    /// The measurements at one width.
    struct Table: Sendable {
        private(set) var sizes: [String: LayoutPixelSize] = [:]
        /// What its entries cost in memory (``MemoryCost/measuredCell(_:)`` each).
        private(set) var heldBytes = 0
        /// The order cells were first measured in (for forgetting the oldest). Entries of
        /// cells removed since (``remove(_:)``) stay until ``compact()``: a removal costs O(1).
        private var order: [String] = []
        /// Entries of ``order`` whose cells were removed since it was last compacted.
        private var stale = 0
        /// Changes whenever a size does (unique over all the list's tables): layouts made from
        /// another generation are stale.
        fileprivate(set) var generation = 0
        /// A hash of the contents, kept as they change: two lists whose tables have the same
        /// signature lay out alike (their windows can be shared).
        private(set) var signature = 0
        /// Whether measurements were forgotten since ``record(_:width:)`` began.
        fileprivate var forgot = false

        var isEmpty: Bool { sizes.isEmpty }
        var count: Int { sizes.count }

        /// Takes `size` for `id`. - Returns: whether it differs from what was kept (by more
        /// than a quarter of a pixel on an axis: sub-pixel noise is not a change).
        mutating func set(_ id: String, _ size: LayoutPixelSize, limit: Int) -> Bool {
            if let old = sizes[id] {
                guard abs(old.width - size.width) > 0.25 || abs(old.height - size.height) > 0.25 else { return false }
                signature ^= Self.hash(id, old)
            } else {
                if sizes.count >= limit {
                    forgetOldestHalf()
                    forgot = true
                }
                order.append(id)
                heldBytes += MemoryCost.measuredCell(id)
            }
            sizes[id] = size
            signature ^= Self.hash(id, size)
            return true
        }

        /// Drops the size of `id`. - Returns: whether there was one.
        /// - Complexity: O(1) amortized (``order`` is compacted once most of it is stale).
        mutating func remove(_ id: String) -> Bool {
            guard let size = sizes.removeValue(forKey: id) else { return false }
            signature ^= Self.hash(id, size)
            heldBytes -= MemoryCost.measuredCell(id)
            stale += 1
            if stale > max(64, sizes.count) { compact() }
            return true
        }

        /// Leaves in ``order`` only the cells kept, each once, at the place it was last first
        /// measured (a cell removed and measured again is as new). - Complexity: O(order).
        private mutating func compact() {
            guard stale > 0 else { return }
            var seen = Set<String>(minimumCapacity: sizes.count)
            var kept: [String] = []
            kept.reserveCapacity(sizes.count)
            for id in order.reversed() where sizes[id] != nil && seen.insert(id).inserted { kept.append(id) }
            order = kept.reversed()
            stale = 0
        }

        private mutating func forgetOldestHalf() {
            compact()
            let forgotten = order.prefix(order.count / 2 + 1)
            for id in forgotten {
                if let size = sizes.removeValue(forKey: id) {
                    signature ^= Self.hash(id, size)
                    heldBytes -= MemoryCost.measuredCell(id)
                }
            }
            order.removeFirst(forgotten.count)
        }

        private static func hash(_ id: String, _ size: LayoutPixelSize) -> Int {
            var hasher = Hasher()
            hasher.combine(id)
            hasher.combine(size.width)
            hasher.combine(size.height)
            return hasher.finalize()
        }
    }

    static let maximumWidths = 3
    static let maximumCells = 20_000

    private var tables: [Double: Table] = [:]
    private var generations = 0
    /// Widths, least recently measured first.
    private var recency: [Double] = []

    /// What every width's measurements cost in memory (charged to the list's session).
    var heldBytes: Int { tables.values.reduce(0) { $0 + $1.heldBytes } }

    /// Whether no width has measurements (a write's deletions need no look then).
    var isEmpty: Bool { tables.values.allSatisfy(\.isEmpty) }

    /// What recording `measured` at `width` would add in memory, at most (cells not measured
    /// at that width yet; a width not kept yet; nothing is forgotten in this reckoning).
    /// - Complexity: O(k) for k sizes.
    func growth(recording measured: [(id: String, size: LayoutPixelSize)], width: Double) -> Int {
        let table = tables[width]
        var bytes = 0
        for (id, _) in measured where table?.sizes[id] == nil { bytes += MemoryCost.measuredCell(id) }
        return bytes
    }

    /// The measurements at `width` (empty when none).
    func table(forWidth width: Double) -> Table { tables[width] ?? Table() }

    /// What ``record(_:width:)`` did.
    struct Recorded {
        /// Whether any size changed.
        var changed: Bool
        /// The generation of the width's table before: a layout made from it takes the
        /// measurements in place (``ListLayout/applyMeasurements(_:table:)``)...
        var previousGeneration: Int
        /// ...unless some were forgotten meanwhile (the table was full): then layouts are made afresh.
        var forgot: Bool
        /// The width whose measurements were forgotten to make room for this one (a fourth
        /// width): its cells are back at their estimates, and its streams must be told.
        var forgottenWidth: Double?
    }

    /// Records measurements taken at `width`. A width not kept yet is kept only when one of
    /// them is a size (an empty or unchanged message forgets no other width).
    /// - Complexity: O(k) for k sizes (O(n) when the width's table is full and its oldest half
    ///   is forgotten).
    @discardableResult
    mutating func record(_ measured: [(id: String, size: LayoutPixelSize)], width: Double) -> Recorded {
        // Taken out while it changes, so that its sizes are not copied.
        let kept = tables[width] != nil
        var table = tables.removeValue(forKey: width) ?? Table()
        let previous = table.generation
        table.forgot = false
        var changed = false
        for (id, size) in measured where table.set(id, size, limit: Self.maximumCells) { changed = true }
        guard changed || kept else {
            return Recorded(changed: false, previousGeneration: previous, forgot: false)
        }
        recency.removeAll { $0 == width }
        var forgottenWidth: Double?
        if tables.count >= Self.maximumWidths, let oldest = recency.first {
            tables[oldest] = nil
            recency.removeFirst()
            forgottenWidth = oldest
        }
        if changed {
            generations += 1
            table.generation = generations
        }
        tables[width] = table
        recency.append(width)
        return Recorded(changed: changed, previousGeneration: previous, forgot: table.forgot, forgottenWidth: forgottenWidth)
    }

    /// Drops the sizes of `items` at every width: items a write deleted (the caller passes
    /// only those the list no longer has, so no layout of its current snapshot changes, and
    /// the tables keep their generations).
    /// - Returns: whether any size was dropped.
    /// - Complexity: O(k · w) for k items and w (at most 3) widths.
    @discardableResult
    mutating func forget(_ items: [String]) -> Bool {
        var dropped = false
        for width in Array(tables.keys) {
            guard var table = tables.removeValue(forKey: width) else { continue }
            for id in items where table.remove(id) { dropped = true }
            tables[width] = table
        }
        return dropped
    }
}
