import CompositionalLayout

/// The five looks of UIKit's list (`UICollectionLayoutListConfiguration.Appearance`), each a
/// ``CompositionalLayout`` of ``ListConfiguration`` with section headers. Switching among them
/// changes frames only: the same items, the same sections.
public enum ListAppearance: String, Sendable, CaseIterable, Codable {
    case plain, grouped, insetGrouped, sidebar, sidebarPlain

    /// The segmented control's label.
    public var title: String {
        switch self {
        case .plain: "Plain"
        case .grouped: "Grouped"
        case .insetGrouped: "Inset grouped"
        case .sidebar: "Sidebar"
        case .sidebarPlain: "Sidebar plain"
        }
    }

    var configurationAppearance: ListConfiguration.Appearance {
        switch self {
        case .plain: .plain
        case .grouped: .grouped
        case .insetGrouped: .insetGrouped
        case .sidebar: .sidebar
        case .sidebarPlain: .sidebarPlain
        }
    }

    /// The element kind of every section's background, in every appearance: the rows' band (a
    /// band across the width when grouped, a rounded card when inset grouped, nothing to see in
    /// the others; the page styles it by `data-decoration` and the appearance). One kind for all
    /// five, so that a switch moves each section's background to its new frame, as it does the
    /// rows, instead of leaving one kind's and bringing another's.
    static let sectionBackgroundKind = "list-section"

    /// The header's height, as `LayoutSection.list` gives it: the background starts below it.
    static func headerHeight(of section: LayoutSection) -> Double {
        switch section.boundarySupplementaryItems.first(where: { $0.elementKind == LayoutElementKind.sectionHeader })?.layoutSize.heightDimension {
        case .absolute(let height), .estimated(let height): height
        case .fractionalWidth, .fractionalHeight, nil: 0
        }
    }

    public var layout: CompositionalLayout {
        let appearance = self
        return CompositionalLayout { _, environment in
            var configuration = ListConfiguration(appearance: appearance.configurationAppearance)
            configuration.headerMode = .supplementary
            var section = LayoutSection.list(using: configuration, layoutEnvironment: environment)
            // The rows' band: the section less its header above, its margins beside and its
            // gap below (the rows' own insets), as Explore's card.
            var background = LayoutDecorationItem.background(elementKind: Self.sectionBackgroundKind)
            background.contentInsets = DirectionalEdgeInsets(top: Self.headerHeight(of: section) + section.contentInsets.top,
                                                             leading: section.contentInsets.leading, bottom: section.contentInsets.bottom,
                                                             trailing: section.contentInsets.trailing)
            section.decorationItems = [background]
            return section
        }
    }
}
