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

    /// The element kind of a grouped section's background (the page styles it by
    /// `data-decoration`): a band across the width (grouped) or a rounded card inset from the
    /// edges (inset grouped), under the header. The other appearances have none.
    var sectionBackgroundKind: String? {
        switch self {
        case .grouped: "grouped-section"
        case .insetGrouped: "inset-grouped-card"
        case .plain, .sidebar, .sidebarPlain: nil
        }
    }

    public var layout: CompositionalLayout {
        let appearance = self
        return CompositionalLayout { _, environment in
            var configuration = ListConfiguration(appearance: appearance.configurationAppearance)
            configuration.headerMode = .supplementary
            var section = LayoutSection.list(using: configuration, layoutEnvironment: environment)
            if let kind = appearance.sectionBackgroundKind {
                // The rows' band: the section less its header above, its margins beside and
                // its gap below (the rows' own insets), as Explore's card.
                var background = LayoutDecorationItem.background(elementKind: kind)
                background.contentInsets = DirectionalEdgeInsets(top: ListMetrics.groupedHeaderHeight, leading: section.contentInsets.leading,
                                                                 bottom: section.contentInsets.bottom, trailing: section.contentInsets.trailing)
                section.decorationItems = [background]
            }
            return section
        }
    }
}
