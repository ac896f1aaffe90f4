import CompositionalLayout
import DiffableWeb
import Foundation

/// Apple's "Implementing Modern Collection Views" orthogonal sections, as an App-Store-like
/// page: a carousel of large cards that pages one group at a time (`.groupPaging`), a row of
/// tiles that scrolls freely (`.continuous`), each with a section header, above a vertical list.
/// The browser scrolls each carousel sideways on its own (CSS scroll-snap for paging); the
/// server lays them out as UIKit does, frames along the section's own scrolling axis.
///
/// Every section header is pinned (`pinToVisibleBounds`): it stays at the top of the viewport
/// while its section scrolls by, and the next section's header pushes it away. The list's rows
/// sit on a section background (`LayoutDecorationItem.background`), the rounded card of an
/// inset-grouped list, drawn by the browser behind them.
public struct Explore: BuiltInList, SupplementaryViews, ListAssets {
    public static let title = "Explore"
    public static let summary = "Orthogonal sections: a paging carousel and a free-scrolling row above a list, like the App Store."
    public static let cellTemplates = ["cells/explore-card", "cells/mountain", "cells/explore-header"]

    public enum Section: String, CaseIterable, Decodable, Sendable {
        case featured, new, all

        var title: String { ["featured": "Featured climbs", "new": "New routes", "all": "Every peak"][rawValue] ?? rawValue }
    }

    /// The mountains the page shows, and their pictures (shared by every session).
    public struct Content: Sendable {
        let mountains: [Mountain]
        /// Each mountain by id, with its picture's number.
        let byID: [String: (mountain: Mountain, picture: Int)]
        let pictures: PhotoLibrary

        public init(catalog: MountainCatalog) {
            mountains = Array(catalog.mountains.prefix(60))
            byID = Dictionary(uniqueKeysWithValues: mountains.enumerated().map { ($1.id, ($1, $0 + 1)) })
            pictures = PhotoLibrary.generated(captions: mountains.map(\.name), count: mountains.count)
        }
    }

    @Shared var content: Content

    public enum Action: WebListAction {
        case shuffle(section: Section)
        public static let descriptions = ["shuffle": "Shuffle one section's items (they slide to their new places)", "shuffle.section": "The section to shuffle"]
    }

    /// A card (featured, new) or a row (all).
    public struct Cell: TemplatedCell {
        public let template: String
        let name: String, height: String, src: String?, size: String?
    }

    /// A section's header: its title and its own Shuffle button (an action that targets one
    /// section belongs in that section's header).
    public struct Header: TemplatedCell {
        public let template = "cells/explore-header"
        let title: String, section: String
    }

    /// The element kind of the list's card (`data-decoration` in the page, styled by app.css).
    static let cardKind = "inset-grouped-card"

    public init() {}

    /// Item ids: the section's name and the mountain's id (`featured-m0001`), unique per section.
    static func item(_ section: Section, _ mountain: Mountain) -> String { "\(section.rawValue)-\(mountain.id)" }

    public func initialSnapshot() throws -> Snapshot<String, String> {
        let mountains = content.mountains
        return try Snapshot([
            Section.featured.rawValue: mountains.prefix(8).map { Self.item(.featured, $0) },
            Section.new.rawValue: mountains.dropFirst(8).prefix(16).map { Self.item(.new, $0) },
            Section.all.rawValue: mountains.map { Self.item(.all, $0) },
        ])
    }

    public func layout() -> CompositionalLayout {
        CompositionalLayout { index, environment in
            var header = LayoutBoundarySupplementaryItem(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(44)),
                elementKind: LayoutElementKind.sectionHeader, alignment: .top)
            header.pinToVisibleBounds = true
            let fill = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1)))
            /// A carousel under a header: groups of `size` that scroll sideways as `behavior` says.
            func carousel(_ size: LayoutSize, _ behavior: OrthogonalScrollingBehavior, spacing: Double) -> LayoutSection {
                var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: size, subitems: [fill]))
                section.orthogonalScrollingBehavior = behavior
                section.interGroupSpacing = spacing
                // The inset-grouped list's 20-px margin: every section starts on one edge.
                section.contentInsets = DirectionalEdgeInsets(top: 0, leading: ListMetrics.insetGroupedMargin, bottom: 16,
                                                              trailing: ListMetrics.insetGroupedMargin)
                section.boundarySupplementaryItems = [header]
                return section
            }
            switch index {
            case 0:
                // One large card per group, 90% of the width: the next one peeks in.
                return carousel(LayoutSize(widthDimension: .fractionalWidth(0.9), heightDimension: .absolute(240)), .groupPaging, spacing: 12)
            case 1:
                return carousel(LayoutSize(widthDimension: .absolute(180), heightDimension: .absolute(150)), .continuous, spacing: 10)
            default:
                var configuration = ListConfiguration(appearance: .insetGrouped)
                configuration.headerMode = .supplementary
                configuration.pinsHeaders = true
                var section = LayoutSection.list(using: configuration, layoutEnvironment: environment)
                // The card behind the rows: the section's frame less its header above, its
                // margins beside and its gap below (the rows' own insets).
                var card = LayoutDecorationItem.background(elementKind: Self.cardKind)
                card.contentInsets = DirectionalEdgeInsets(top: ListMetrics.groupedHeaderHeight, leading: section.contentInsets.leading,
                                                           bottom: section.contentInsets.bottom, trailing: section.contentInsets.trailing)
                section.decorationItems = [card]
                return section
            }
        }
    }

    public func cell(for item: String) -> Cell? {
        guard let dash = item.firstIndex(of: "-"), let section = Section(rawValue: String(item[..<dash])),
              let (mountain, picture) = content.byID[String(item[item.index(after: dash)...])] else { return nil }
        let height = "\(mountain.height.grouped) m"
        switch section {
        case .featured, .new:
            return Cell(template: "cells/explore-card", name: mountain.name, height: height,
                        src: String(format: "/demos/explore/assets/p%03d.svg", picture), size: section == .featured ? "large" : "small")
        case .all:
            return Cell(template: "cells/mountain", name: mountain.name, height: height, src: nil, size: nil)
        }
    }

    public func supplementary(_ kind: CellKind, in section: String, of list: Snapshot<String, String>) -> Header? {
        guard kind == .header, let section = Section(rawValue: section) else { return nil }
        return Header(title: section.title, section: section.rawValue)
    }

    public var assets: DemoAssets {
        .generated { [pictures = content.pictures] name in pictures.svg(for: name).map { DemoAsset(contentType: "image/svg+xml", bytes: $0) } }
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .shuffle(let section):
            let items = try list.itemIdentifiers(inSection: section.rawValue)
            try list.deleteItems(items)
            try list.appendItems(items.shuffled(), toSection: section.rawValue)
        }
    }

    public func status(of list: Snapshot<String, String>) -> String { "\(list.numberOfItems) items in \(list.numberOfSections) sections" }
}
