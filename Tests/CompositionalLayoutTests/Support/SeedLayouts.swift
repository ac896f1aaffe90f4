import CompositionalLayout

/// The seeds' layouts (SEEDS.md, 001) and Apple's sample layouts, written with this module's API.
/// They live in the tests, not the library: the library stays generic.
enum SeedLayouts {
    /// `createBasicListLayout()`: full-width rows, 44 px tall.
    static let basicList: CompositionalLayout = {
        let item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
        let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .absolute(44)), subitems: [item])
        return CompositionalLayout(section: LayoutSection(group: group))
    }()

    /// Apple's "Implementing Modern Collection Views", `MountainsViewController.createLayout()`.
    static let mountains = CompositionalLayout { _, environment in
        let contentSize = environment.container.effectiveContentSize
        let columns = contentSize.width > 800 ? 3 : 2
        let spacing = 10.0
        let item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .absolute(32)), subitem: item, count: columns)
        group.interItemSpacing = .fixed(spacing)
        var section = LayoutSection(group: group)
        section.interGroupSpacing = spacing
        section.contentInsets = .uniform(spacing)
        return section
    }

    /// The seeds' `leftOneRightThree`.
    static let leftOneRightThree = CompositionalLayout { _, _ in
        let margin = 1.0
        var leadingItem = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
        leadingItem.contentInsets = .uniform(margin)
        let leadingGroup = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)), subitem: leadingItem, count: 1)

        var trailingItem = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
        trailingItem.contentInsets = .uniform(margin)
        let trailingGroup = LayoutGroup.vertical(layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)), subitem: trailingItem, count: 3)

        let containerGroup = LayoutGroup.horizontal(
            layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(0.6)), subitems: [leadingGroup, trailingGroup])
        return LayoutSection(group: containerGroup)
    }

    /// The seeds' `leftThreeRightThree`.
    static let leftThreeRightThree = CompositionalLayout { _, _ in
        let margin = 2.0
        func item(_ fraction: Double) -> LayoutItem {
            var item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(fraction)))
            item.contentInsets = .uniform(margin)
            return item
        }
        let leadingGroup = LayoutGroup.vertical(
            layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)), subitems: [item(0.35), item(0.2), item(0.45)])
        let trailingGroup = LayoutGroup.vertical(
            layoutSize: size(.fractionalWidth(0.5), .fractionalHeight(1.0)), subitems: [item(0.5), item(0.2), item(0.3)])
        let containerGroup = LayoutGroup.horizontal(
            layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)), subitems: [leadingGroup, trailingGroup])
        return LayoutSection(group: containerGroup)
    }

    /// A three-column grid of squares, 8 px apart, 16 px from the edges.
    static let squareGrid = CompositionalLayout { _, environment in
        let insets = 16.0, spacing = 8.0
        let side = (environment.container.effectiveContentSize.width - 2 * insets - 2 * spacing) / 3
        let item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
        var group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(1.0), .absolute(side)), subitem: item, count: 3)
        group.interItemSpacing = .fixed(spacing)
        var section = LayoutSection(group: group)
        section.interGroupSpacing = spacing
        section.contentInsets = .uniform(insets)
        return section
    }

    /// Section 0: a `.continuous` carousel of 0.8-wide × 200-tall groups, 10 apart, 16 from the
    /// sides; section 1: a plain list.
    static let carouselThenList = CompositionalLayout { index, environment in
        if index == 0 {
            let item = LayoutItem(layoutSize: size(.fractionalWidth(1.0), .fractionalHeight(1.0)))
            let group = LayoutGroup.horizontal(layoutSize: size(.fractionalWidth(0.8), .absolute(200)), subitems: [item])
            var section = LayoutSection(group: group)
            section.orthogonalScrollingBehavior = .continuous
            section.interGroupSpacing = 10
            section.contentInsets = DirectionalEdgeInsets(top: 0, leading: 16, bottom: 0, trailing: 16)
            return section
        }
        return LayoutSection.list(using: ListConfiguration(appearance: .plain), layoutEnvironment: environment)
    }

    /// An inset-grouped list with section headers.
    static let insetGroupedWithHeaders = CompositionalLayout { _, environment in
        var configuration = ListConfiguration(appearance: .insetGrouped)
        configuration.headerMode = .supplementary
        return LayoutSection.list(using: configuration, layoutEnvironment: environment)
    }
}
