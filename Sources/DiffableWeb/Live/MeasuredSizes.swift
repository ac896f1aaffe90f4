import CompositionalLayout

/// The sizes browsers measured for a list's self-sizing cells (UIKit's
/// `preferredLayoutAttributesFitting`), by container width: a cell's height depends on the
/// width it is laid out in, so a phone's measurements never stand in for a desktop's.
///
/// Cells are named as on the wire (an item by its identifier, `header:<section>`), so a
/// measurement follows its item through inserts, deletes and moves. Cells nobody measured keep
/// their estimates. Bounded: at most ``maximumWidths`` widths (the one measured least recently
/// is forgotten) and ``maximumCells`` cells per width (past it, the oldest half is forgotten:
/// those cells fall back to their estimates until a browser shows them again).
struct MeasuredSizes: Sendable {
    /// The measurements at one width.
    struct Table: Sendable {
        private(set) var sizes: [String: LayoutPixelSize] = [:]
        /// What its entries cost in memory (``MemoryCost/measuredCell(_:)`` each).
        private(set) var heldBytes = 0
        /// The order cells were first measured in (for forgetting the oldest).
        private var order: [String] = []
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

        private mutating func forgetOldestHalf() {
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
    }

    /// Records measurements taken at `width`.
    @discardableResult
    mutating func record(_ measured: [(id: String, size: LayoutPixelSize)], width: Double) -> Recorded {
        var table = tables.removeValue(forKey: width) ?? Table()
        let previous = table.generation
        table.forgot = false
        recency.removeAll { $0 == width }
        if tables.count >= Self.maximumWidths, let oldest = recency.first {
            tables[oldest] = nil
            recency.removeFirst()
        }
        var changed = false
        for (id, size) in measured where table.set(id, size, limit: Self.maximumCells) { changed = true }
        if changed {
            generations += 1
            table.generation = generations
        }
        tables[width] = table
        recency.append(width)
        return Recorded(changed: changed, previousGeneration: previous, forgot: table.forgot)
    }
}
