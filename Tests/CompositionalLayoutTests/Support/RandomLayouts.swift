import SeededRandom
import CompositionalLayout

/// Random layouts whose subitems always fit their groups (fractions along a group's axis sum to
/// at most 1, spacing only where the fill or `count:` accounts for it; insets non-negative), so
/// that item frames never overlap.
struct RandomLayouts {
    var rng: SplitMix64

    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { double(0...1) < p }

    /// A size whose length along `axis` is `main` of the container and across it `cross`.
    func size(axis: LayoutGroup.Axis, main: Double, cross: Double) -> LayoutSize {
        axis == .horizontal
            ? LayoutSize(widthDimension: .fractionalWidth(main), heightDimension: .fractionalHeight(cross))
            : LayoutSize(widthDimension: .fractionalWidth(cross), heightDimension: .fractionalHeight(main))
    }

    mutating func item(axis: LayoutGroup.Axis, main: Double, badges: Bool) -> LayoutItem {
        var supplementaries: [LayoutSupplementaryItem] = []
        if badges {
            // Inside the item's corner, so the content still encloses it.
            supplementaries.append(LayoutSupplementaryItem(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(0.3), heightDimension: .fractionalHeight(0.3)),
                elementKind: "badge", containerAnchor: LayoutAnchor(edges: [.top, .trailing])))
        }
        var item = LayoutItem(layoutSize: size(axis: axis, main: main, cross: double(0.3...1)), supplementaryItems: supplementaries)
        item.contentInsets = DirectionalEdgeInsets(top: double(0...3), leading: double(0...3), bottom: double(0...3), trailing: double(0...3))
        return item
    }

    /// A subitem of a group along `parentAxis`, taking `main` of its length.
    mutating func subitem(parentAxis: LayoutGroup.Axis, main: Double, depth: Int, badges: Bool) -> LayoutSubitem {
        if depth < 3 && chance(0.35) {
            return .group(group(layoutSize: size(axis: parentAxis, main: main, cross: double(0.5...1)), depth: depth + 1, badges: badges))
        }
        return .item(item(axis: parentAxis, main: main, badges: badges))
    }

    mutating func group(layoutSize: LayoutSize, depth: Int, badges: Bool) -> LayoutGroup {
        let axis: LayoutGroup.Axis = chance(0.5) ? .horizontal : .vertical
        var group: LayoutGroup
        switch int(0...3) {
        case 0:
            // count: — any subitem size; the slots share the length.
            let sub = subitem(parentAxis: axis, main: double(0.1...2), depth: depth, badges: badges)
            group = LayoutGroup(layoutSize: layoutSize, axis: axis, content: .fitting(sub, count: int(1...4)))
            group.interItemSpacing = .fixed(double(0...8))
        case 1:
            // Several subitems whose fractions sum to at most 1, no spacing.
            let count = int(1...3)
            let weights = (0..<count).map { _ in double(0.2...1) }
            let scale = double(0.5...1) / weights.reduce(0, +)
            let subs = weights.map { subitem(parentAxis: axis, main: $0 * scale, depth: depth, badges: badges) }
            group = LayoutGroup(layoutSize: layoutSize, axis: axis, content: .subitems(subs))
        case 2:
            // One subitem repeated while it fits, with spacing.
            let sub = subitem(parentAxis: axis, main: double(0.15...0.6), depth: depth, badges: badges)
            group = LayoutGroup(layoutSize: layoutSize, axis: axis, content: .subitems([sub]))
            group.interItemSpacing = .fixed(double(0...6))
        default:
            // Repeating a small subitem a number of times that fits.
            let n = int(1...3)
            let sub = subitem(parentAxis: axis, main: 1 / Double(n) * double(0.5...1), depth: depth, badges: badges)
            group = LayoutGroup(layoutSize: layoutSize, axis: axis, content: .repeating(sub, count: n))
        }
        if chance(0.3) {
            group.contentInsets = DirectionalEdgeInsets(top: double(0...4), leading: double(0...4), bottom: double(0...4), trailing: double(0...4))
        }
        return group
    }

    mutating func section() -> LayoutSection {
        let height: LayoutDimension = chance(0.5) ? .absolute(double(30...300)) : .fractionalHeight(double(0.05...0.5))
        let width: LayoutDimension = .fractionalWidth(chance(0.7) ? 1 : double(0.3...1))
        let badges = chance(0.2)
        var section = LayoutSection(group: group(layoutSize: LayoutSize(widthDimension: width, heightDimension: height), depth: 0, badges: badges))
        section.interGroupSpacing = chance(0.5) ? 0 : double(0...12)
        section.contentInsets = DirectionalEdgeInsets(top: double(0...20), leading: double(0...20), bottom: double(0...20), trailing: double(0...20))
        if chance(0.2) { section.orthogonalScrollingBehavior = chance(0.5) ? .continuous : .groupPagingCentered }
        if chance(0.4) {
            var header = LayoutBoundarySupplementaryItem(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(double(10...60))),
                elementKind: "header", alignment: .top)
            header.pinToVisibleBounds = chance(0.5)
            section.boundarySupplementaryItems.append(header)
        }
        if chance(0.2) {
            section.boundarySupplementaryItems.append(LayoutBoundarySupplementaryItem(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(double(10...40))),
                elementKind: "footer", alignment: .bottom))
        }
        if chance(0.3) { section.decorationItems.append(.background(elementKind: "background")) }
        return section
    }

    /// A self-sizing list section: rows with estimated heights.
    func estimatedList() -> LayoutSection {
        let row = LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(44))
        var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: row, subitems: [LayoutItem(layoutSize: row)]))
        section.interGroupSpacing = 1
        return section
    }
}
