// How a section's items are kept in a result: a repeated group template whose frames are computed
// on demand, or frames stamped into the result's flat storage.

/// A section's items, in one of three representations.
///
/// A section whose groups are all the same (absolute or fractional sizes, or estimated ones with
/// nothing measured) keeps only its group template: ``RepeatedGroups``. The solve costs the size
/// of the template, not the number of items, and each frame is one multiply-add per coordinate
/// when asked for. A vertical section holding measured self-sizing items keeps the template, the
/// groups solved with their measurements and a sum tree of their length deltas:
/// ``MeasuredGroups`` (a frame costs O(log g)). Other sections whose groups differ (an orthogonal
/// one with measured items, or measurements the sum tree cannot place) keep every item's frame,
/// stamped into the result's flat storage: ``StoredItems``.
enum SectionItems: Sendable {
    case repeated(RepeatedGroups)
    case measured(MeasuredGroups)
    case stored(StoredItems)
}

/// Where a stored section's items, groups and item-anchored supplementaries live in the result's
/// flat arrays.
struct StoredItems: Sendable {
    /// Index of its first frame in `LayoutResult.itemFrames`.
    let firstFrame: Int
    let leavesPerGroup: Int
    /// Index of its first group in `LayoutResult.groupLow` / `groupHigh`.
    let firstGroup: Int
    let groupCount: Int
    /// Its item-anchored supplementaries in the stored supplementaries: where they start, how many
    /// a full group has, how many there are.
    let supplementaryStart: Int
    let supplementariesPerGroup: Int
    let supplementaryCount: Int
}

/// A section's group template, repeated `groupCount` times `step` apart along the section's scroll
/// axis (y; x for an orthogonal section), holding `itemCount` items (the last group may be partial).
///
/// The frame of item `i` is `leaves[i % L]` moved by the origin of group `i / L`, for `L` leaves
/// per group; the origin of group `g` is `origin` plus `g × step` along the axis. The arithmetic is
/// the very expression the stamping loop evaluates (`LayoutSolver.stamp`), so both
/// representations give bit-identical frames.
struct RepeatedGroups: Sendable, Equatable {
    /// The leaf frames of one group, relative to its origin (at least one).
    let leaves: [LayoutRect]
    /// The item-anchored supplementaries of one group, relative to its origin, in leaf order.
    let supplementaries: [SlotSupplementary]
    /// The origin of group 0.
    let origin: LayoutPoint
    /// The distance between the origins of consecutive groups (> 0 when there are several groups).
    let step: Double
    let isOrthogonal: Bool
    /// The lowest and highest coordinate of the template's bounds along the scroll axis,
    /// relative to the group's origin.
    let lowOffset: Double
    let highOffset: Double
    let groupCount: Int
    let itemCount: Int

    var leavesPerGroup: Int { leaves.count }

    /// The origin of group `g`: the same expression as the stamping loop.
    @inline(__always)
    func groupOrigin(_ g: Int) -> (x: Double, y: Double) {
        let offset = Double(g) * step
        return isOrthogonal ? (origin.x + offset, origin.y) : (origin.x, origin.y + offset)
    }

    /// How many items group `g` holds.
    @inline(__always)
    func filled(_ g: Int) -> Int { min(leaves.count, itemCount - g * leaves.count) }

    /// The items held by `groups`.
    func items(inGroups groups: Range<Int>) -> Range<Int> {
        let start = groups.lowerBound * leaves.count
        // The last group may be partial (and `groupCount × L` may exceed `Int.max`).
        let end = groups.upperBound >= groupCount ? itemCount : groups.upperBound * leaves.count
        return min(start, end)..<end
    }

    /// The frame of item `i` (0 ≤ i < itemCount).
    ///
    /// - Complexity: O(1)
    @inline(__always)
    func frame(ofItem i: Int) -> LayoutRect {
        let (g, k) = i.quotientAndRemainder(dividingBy: leaves.count)
        let (ox, oy) = groupOrigin(g)
        let r = leaves[k]
        return LayoutRect(x: r.x + ox, y: r.y + oy, width: r.width, height: r.height)
    }

    /// The same groups with the first one's origin at `origin`.
    func moved(to origin: LayoutPoint) -> RepeatedGroups {
        RepeatedGroups(
            leaves: leaves, supplementaries: supplementaries, origin: origin, step: step, isOrthogonal: isOrthogonal,
            lowOffset: lowOffset, highOffset: highOffset, groupCount: groupCount, itemCount: itemCount)
    }

    /// The groups whose extent along the scroll axis meets `low ..< high`: the first whose high
    /// end is above `low`, up to the first (after it) whose low end is at or past `high`.
    ///
    /// Binary search over the exact coordinates (not a division), so the range is the one the
    /// stored representation's per-group bounds give.
    /// - Complexity: O(log g) for g groups.
    func groups(from low: Double, to high: Double) -> Range<Int> {
        var lo = 0, hi = groupCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if along(mid) + highOffset > low { hi = mid } else { lo = mid + 1 }
        }
        let first = lo
        hi = groupCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if along(mid) + lowOffset >= high { hi = mid } else { lo = mid + 1 }
        }
        return first..<lo
    }

    @inline(__always)
    private func along(_ g: Int) -> Double {
        let (x, y) = groupOrigin(g)
        return isOrthogonal ? x : y
    }

    /// The item-anchored supplementaries of group `g`, appended to `out` as the stamping path
    /// would have stored them.
    func appendSupplementaries(ofGroup g: Int, section: Int, to out: inout [LayoutSupplementary]) {
        let (ox, oy) = groupOrigin(g)
        let first = g * leaves.count
        let filled = filled(g)
        for s in supplementaries where s.leaf < filled {
            out.append(LayoutSupplementary(
                kind: s.kind, indexPath: ItemPath(section: section, item: first + s.leaf),
                frame: s.frame.offsetBy(dx: ox, dy: oy), isPinned: false, alignment: nil, zIndex: s.zIndex))
        }
    }

    /// Whether the two give the same frames for every item and item-anchored supplementary
    /// (a sufficient condition, not a necessary one).
    func hasSameFrames(as other: RepeatedGroups) -> Bool {
        itemCount == other.itemCount && isOrthogonal == other.isOrthogonal && origin == other.origin
            && (groupCount <= 1 || step == other.step) && leaves == other.leaves
            && supplementaries == other.supplementaries
    }
}
