// Prefix sums over a section's groups: how much each measured group is longer (or shorter) than
// the template, so that any group's origin is one prefix query away.

/// A sum tree over one value per group (a group's extent delta along the scroll axis).
///
/// A segment tree rather than a Fenwick tree, for one reason: every inner node is recomputed as
/// `left + right` from its children, never accumulated with `+=`, so each node — and each prefix
/// sum — is a function of the current values alone, not of the order in which they were set.
/// A tree built at once and a tree updated a hundred times hold the same bits, so an
/// incrementally updated layout equals a fresh solve frame for frame, even for sizes like 84.4
/// whose sums round.
///
/// ```swift
/// var offsets = GroupOffsets(count: 5)
/// offsets.set(1, to: 56)        // group 1 measured 56 px taller than its estimate
/// offsets.prefix(3)             // 56: groups 2, 3 and 4 move down by 56
/// ```
struct GroupOffsets: Sendable, Equatable {
    /// Leaves at `width ..< width + count`, inner node `i` the sum of `2i` and `2i + 1`; `nodes[1]`
    /// is the total.
    private(set) var nodes: [Double]
    /// The leaf level's width: a power of two, at least 1.
    let width: Int
    let count: Int

    /// All zeros.
    ///
    /// - Complexity: O(n)
    init(count: Int) {
        var width = 1
        while width < count { width *= 2 }
        self.width = width
        self.count = count
        nodes = Array(repeating: 0, count: 2 * width)
    }

    /// From every group's value, in order.
    ///
    /// - Complexity: O(n) for n groups.
    init(values: [Double]) {
        self.init(count: values.count)
        nodes.withUnsafeMutableBufferPointer { nodes in
            for (g, value) in values.enumerated() { nodes[width + g] = value }
        }
        sumUp()
    }

    private mutating func sumUp() {
        for i in stride(from: width - 1, through: 1, by: -1) { nodes[i] = nodes[2 * i] + nodes[2 * i + 1] }
    }

    /// The value of group `g`.
    ///
    /// - Complexity: O(1)
    func value(_ g: Int) -> Double { nodes[width + g] }

    /// The sum of every value.
    ///
    /// - Complexity: O(1)
    var total: Double { nodes[1] }

    /// Sets group `g`'s value and the sums above it.
    ///
    /// - Complexity: O(log n)
    mutating func set(_ g: Int, to value: Double) {
        var i = width + g
        nodes[i] = value
        i /= 2
        while i >= 1 {
            nodes[i] = nodes[2 * i] + nodes[2 * i + 1]
            i /= 2
        }
    }

    /// The sum of the values of groups `0 ..< g` (0 ≤ g ≤ count).
    ///
    /// - Complexity: O(log n)
    func prefix(_ g: Int) -> Double {
        if g <= 0 { return 0 }
        var node = 1, start = 0, span = width, sum = 0.0
        while span > 1 {
            let half = span / 2
            if g >= start + half {
                sum += nodes[2 * node]
                node = 2 * node + 1
                start += half
            } else {
                node = 2 * node
            }
            span = half
        }
        return g > start ? sum + nodes[node] : sum
    }

    /// The last group `g` in `0 ... count` whose position `Double(g) × step + prefix(g)` is at
    /// most `limit`, or −1 if none is; positions must not decrease with g (every group's
    /// `step + value ≥ 0`).
    ///
    /// A descent from the root finds it in O(log n); it compares sums accumulated in another
    /// order than ``prefix(_:)``'s, so the answer is then checked against the exact positions and
    /// moved by a group if rounding put it one off.
    ///
    /// - Complexity: O(log n), plus the groups of zero length around the answer.
    func lastGroup(atOrBelow limit: Double, step: Double) -> Int {
        func position(_ g: Int) -> Double { Double(g) * step + prefix(g) }
        var node = 1, start = 0, span = width, sum = 0.0
        while span > 1 {
            let half = span / 2
            let middle = start + half
            if middle <= count && Double(middle) * step + (sum + nodes[2 * node]) <= limit {
                sum += nodes[2 * node]
                node = 2 * node + 1
                start = middle
            } else {
                node = 2 * node
            }
            span = half
        }
        var g = start
        if g + 1 <= count && position(g + 1) <= limit { g += 1 }
        while g >= 0 && position(g) > limit { g -= 1 }
        while g + 1 <= count && position(g + 1) <= limit { g += 1 }
        return g
    }
}
