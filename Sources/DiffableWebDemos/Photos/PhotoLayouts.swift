import CompositionalLayout
import DiffableWeb

/// The photo grid's layouts: exactly the seed's (../shared/SEEDS.md, 001), plus a square grid.
public enum PhotoLayout: String, Sendable, CaseIterable, Codable {
    /// `createBasicListLayout()`: full-width rows, 44 px tall.
    case list
    /// One tall item on the left, three on the right, in a group 0.6 of the container's height;
    /// every item inset 1 px.
    case leftOneRightThree
    /// Three items on each side, of fractional heights 0.35 / 0.2 / 0.45 and 0.5 / 0.2 / 0.3, in
    /// a group as tall as the container; margins 2 px.
    case leftThreeRightThree
    /// Three square columns, 2 px apart.
    case grid

    /// The button label.
    public var title: String {
        switch self {
        case .list: "List"
        case .leftOneRightThree: "1 + 3"
        case .leftThreeRightThree: "3 + 3"
        case .grid: "Grid"
        }
    }

    public var layout: CompositionalLayout {
        switch self {
        case .list: Self.basicListLayout
        case .leftOneRightThree: Self.leftOneRightThreeLayout
        case .leftThreeRightThree: Self.leftThreeRightThreeLayout
        case .grid: Self.squareGridLayout
        }
    }

    private static func size(_ width: LayoutDimension, _ height: LayoutDimension) -> LayoutSize {
        LayoutSize(widthDimension: width, heightDimension: height)
    }

    private static func item(height: Double, margin: Double) -> LayoutItem {
        var item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(height)))
        item.contentInsets = .uniform(margin)  // before the group is built, as the seed notes
        return item
    }

    static let basicListLayout: CompositionalLayout = {
        let item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .absolute(44)), subitems: [item])
        return CompositionalLayout(section: LayoutSection(group: group))
    }()

    static let leftOneRightThreeLayout: CompositionalLayout = {
        let leading = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)),
                                           subitem: item(height: 1.0, margin: 1), count: 1)
        let trailing = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)),
                                            subitem: item(height: 1.0, margin: 1), count: 3)
        let container = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(0.6)),
                                               subitems: [leading, trailing])
        return CompositionalLayout(section: LayoutSection(group: container))
    }()

    static let leftThreeRightThreeLayout: CompositionalLayout = {
        let leading = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)),
                                           subitems: [0.35, 0.2, 0.45].map { item(height: $0, margin: 2) })
        let trailing = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)),
                                            subitems: [0.5, 0.2, 0.3].map { item(height: $0, margin: 2) })
        let container = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)),
                                               subitems: [leading, trailing])
        return CompositionalLayout(section: LayoutSection(group: container))
    }()

    static let squareGridLayout: CompositionalLayout = {
        let square = item(height: 1.0, margin: 1)
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .fractionalWidth(1.0 / 3)), subitem: square, count: 3)
        return CompositionalLayout(section: LayoutSection(group: group))
    }()
}
