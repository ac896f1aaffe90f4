import CompositionalLayout

/// The insertion sort's layout: each section one row of square nodes, as
/// `layoutEnvironment.container` allows. The row is as wide as the list up to
/// ``maximumSide`` a node (a phone's 350 px: 29-px nodes; a desktop's: 44-px ones, the rows
/// still on one screen), each node a fractional width 1/n of it, inset 2 px all round so
/// neighbours and rows stand apart.
enum NodeRows {
    /// The largest node, in CSS pixels: a row of 12 is then 528 px wide, 16 rows 704 px tall.
    static let maximumSide = 44.0
    /// Each node's inset (twice this between neighbours).
    static let inset = 2.0

    static func layout(nodes: Int) -> CompositionalLayout {
        CompositionalLayout { _, environment in
            let count = Double(max(1, nodes))
            let width = min(environment.container.width, maximumSide * count)
            var node = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1 / count), heightDimension: .fractionalHeight(1)))
            node.contentInsets = .uniform(inset)
            let row = LayoutGroup.horizontal(layoutSize: LayoutSize(widthDimension: .absolute(width), heightDimension: .absolute(width / count)),
                                             repeatingSubitem: node, count: nodes)
            return LayoutSection(group: row)
        }
    }
}
