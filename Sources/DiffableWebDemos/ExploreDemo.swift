import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

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
public final class ExploreDemo: Demo {
    enum Section: String, CaseIterable {
        case featured, new, all

        var title: String {
            switch self {
            case .featured: "Featured climbs"
            case .new: "New routes"
            case .all: "Every peak"
            }
        }
    }

    /// The element kind of the list's card (`data-decoration` in the page, styled by app.css).
    static let cardKind = "inset-grouped-card"

    public static func descriptor(catalog: MountainCatalog) -> DemoDescriptor {
        let mountains = Array(catalog.mountains.prefix(60))
        let pictures = PhotoLibrary.generated(captions: mountains.map(\.name), count: mountains.count)
        return DemoDescriptor(
            name: "explore", title: "Explore",
            summary: "Orthogonal sections: a paging carousel and a free-scrolling row above a list, like the App Store.",
            cellTemplates: ["cells/explore-card", "cells/mountain", "cells/explore-header"],
            actions: [
                ActionDescriptor(name: "shuffle", description: "Shuffle one section's items (they slide to their new places)",
                                 parameters: [.init(name: "section", type: "string", required: true, description: "The section to shuffle",
                                                    choices: Section.allCases.map(\.rawValue))]),
            ],
            example: ExampleRequest(action: "shuffle", body: #"{"section":"featured"}"#),
            assets: .generated { name in pictures.svg(for: name).map { DemoAsset(contentType: "image/svg+xml", bytes: $0) } },
            make: { ExploreDemo(mountains: mountains) })
    }

    let mountains: [Mountain]
    private let byID: [String: (mountain: Mountain, picture: Int)]

    init(mountains: [Mountain]) {
        self.mountains = mountains
        byID = Dictionary(uniqueKeysWithValues: mountains.enumerated().map { ($1.id, ($1, $0 + 1)) })
    }

    /// Item ids: the section's prefix and the mountain's id (`featured-m0001`), unique per section.
    static func item(_ section: Section, _ mountain: Mountain) -> String { "\(section.rawValue)-\(mountain.id)" }

    public func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(Section.allCases.map(\.rawValue))  // constant ids: cannot fail
        try? snapshot.appendItems(mountains.prefix(8).map { Self.item(.featured, $0) }, toSection: Section.featured.rawValue)
        try? snapshot.appendItems(mountains.dropFirst(8).prefix(16).map { Self.item(.new, $0) }, toSection: Section.new.rawValue)
        try? snapshot.appendItems(mountains.map { Self.item(.all, $0) }, toSection: Section.all.rawValue)
        return snapshot
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

    public func cell(for item: String) -> CellContent? {
        guard let dash = item.firstIndex(of: "-"), let section = Section(rawValue: String(item[..<dash])),
              let (mountain, picture) = byID[String(item[item.index(after: dash)...])] else { return nil }
        switch section {
        case .featured, .new:
            return CellContent(template: "cells/explore-card", values: [
                "name": mountain.name, "height": "\(mountain.height.grouped) m",
                "src": String(format: "/demos/explore/assets/p%03d.svg", picture), "size": section == .featured ? "large" : "small"])
        case .all:
            return CellContent(template: "cells/mountain", values: ["name": mountain.name, "height": "\(mountain.height.grouped) m"])
        }
    }

    /// A section's header: its title and its own Shuffle button (an action that targets one
    /// section belongs in that section's header).
    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? {
        guard kind == .header, let section = Section(rawValue: section) else { return nil }
        return CellContent(template: "cells/explore-header", values: ["title": section.title, "section": section.rawValue])
    }

    public func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        guard action == "shuffle" else { throw .unknownAction(action) }
        let name = try parameters.requiredString("section")
        guard let section = Section(rawValue: name) else {
            throw .invalidParameter("section", "must be one of \(Section.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try dataSource.update(animatingDifferences: true) { snapshot throws(ActionError) in
            do throws(SnapshotError) {
                let items = try snapshot.itemIdentifiers(inSection: section.rawValue)
                try snapshot.deleteItems(items)
                try snapshot.appendItems(items.shuffled(), toSection: section.rawValue)
            } catch {
                throw .snapshot(error)
            }
        }
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        "\(snapshot.numberOfItems) items in \(snapshot.numberOfSections) sections"
    }

    public func pageValues() -> [String: String] { [:] }
}
