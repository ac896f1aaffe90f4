extension LayoutSection {
    /// A list section: one full-width row per item, `.estimated(44)` tall, with the configuration's
    /// insets, headers and footers (UIKit's `NSCollectionLayoutSection.list(using:layoutEnvironment:)`).
    ///
    /// ```swift
    /// let layout = CompositionalLayout { _, environment in
    ///     var list = ListConfiguration(appearance: .plain)
    ///     list.headerMode = .supplementary
    ///     return LayoutSection.list(using: list, layoutEnvironment: environment)
    /// }
    /// ```
    /// - Complexity: O(1)
    public static func list(using configuration: ListConfiguration, layoutEnvironment: LayoutEnvironment) -> LayoutSection {
        let row = LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .estimated(ListMetrics.rowHeight))
        let item = LayoutItem(layoutSize: row)
        let group = LayoutGroup.horizontal(layoutSize: row, subitems: [item])
        var section = LayoutSection(group: group)

        let isGrouped = configuration.appearance == .grouped || configuration.appearance == .insetGrouped
        let margin: Double = switch configuration.appearance {
        case .insetGrouped: ListMetrics.insetGroupedMargin
        case .sidebar: ListMetrics.sidebarMargin
        case .plain, .grouped, .sidebarPlain: 0
        }
        let headerHeight: Double = switch configuration.appearance {
        case .plain: ListMetrics.plainHeaderHeight
        case .grouped, .insetGrouped: ListMetrics.groupedHeaderHeight
        case .sidebar, .sidebarPlain: ListMetrics.sidebarHeaderHeight
        }
        let hasHeader = configuration.headerMode == .supplementary
        let hasFooter = configuration.footerMode == .supplementary
        section.contentInsets = DirectionalEdgeInsets(
            top: isGrouped && !hasHeader ? ListMetrics.groupedSectionGap : 0,
            leading: margin,
            bottom: isGrouped && !hasFooter ? ListMetrics.groupedSectionGap : 0,
            trailing: margin)

        let supplementarySize = LayoutSize(widthDimension: .fractionalWidth(1.0), heightDimension: .estimated(headerHeight))
        if hasHeader {
            var header = LayoutBoundarySupplementaryItem(layoutSize: supplementarySize, elementKind: LayoutElementKind.sectionHeader, alignment: .top)
            header.pinToVisibleBounds = configuration.pinsHeaders
            section.boundarySupplementaryItems.append(header)
        }
        if hasFooter {
            section.boundarySupplementaryItems.append(
                LayoutBoundarySupplementaryItem(layoutSize: supplementarySize, elementKind: LayoutElementKind.sectionFooter, alignment: .bottom))
        }
        return section
    }
}
