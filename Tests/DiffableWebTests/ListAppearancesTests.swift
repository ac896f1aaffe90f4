import CompositionalLayout
import DiffableDataSources
import Foundation
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Apple's List Appearances on its own: the emoji list, the appearance action (a relayout:
/// the same snapshot, only frames change), each appearance's insets at a phone's and a
/// desktop's width, and the state's saved form.
@Suite("List appearances: one emoji list in five appearances; switching changes frames only")
struct ListAppearancesTests {
    static let widths = [390.0, 1280.0]

    static func solve(_ appearance: ListAppearance, width: Double, list: Snapshot<String, String>) -> LayoutResult {
        appearance.layout.solve(itemCounts: list.sectionIdentifiers.map { (try? list.numberOfItems(inSection: $0)) ?? 0 },
                                container: LayoutContainer(width: width, height: 844))
    }

    static func elements(_ result: LayoutResult) -> [LayoutElement] {
        result.frames(in: LayoutRect(x: 0, y: 0, width: result.contentSize.width, height: result.contentSize.height + 1))
    }

    @Test("five emoji groups of six, each emoji with its cell, each group with its header")
    func content() throws {
        let state = ListAppearances()
        let list = try state.initialSnapshot()
        #expect(list.sectionIdentifiers == ["smileys", "animals", "food", "activities", "travel"])
        #expect(list.numberOfItems == 30 && Set(list.itemIdentifiers).count == 30)
        for item in list.itemIdentifiers {
            let cell = try #require(state.cell(for: item))
            #expect(!cell.emoji.isEmpty && !cell.name.isEmpty && cell.codePoint.hasPrefix("U+"))
        }
        #expect(state.cell(for: "grinning-face")?.codePoint == "U+1F600")
        #expect(state.cell(for: "partying-face")?.last == true && state.cell(for: "grinning-face")?.last == false)
        #expect(state.cell(for: "no-such-emoji") == nil)
        for section in list.sectionIdentifiers {
            #expect(state.supplementary(.header, in: section, of: list)?.title.isEmpty == false)
            #expect(state.supplementary(.footer, in: section, of: list) == nil)
        }
        #expect(state.supplementary(.header, in: "elsewhere", of: list) == nil)
    }

    @Test("switching the appearance changes the page state only: the snapshot is the same, its changeset empty",
          arguments: ListAppearance.allCases)
    func switchingKeepsTheSnapshot(_ appearance: ListAppearance) throws {
        var state = ListAppearances()
        var list = try state.initialSnapshot()
        let before = list
        try state.perform(.appearance(style: appearance), on: &list)
        #expect(list == before)
        let changes = Changeset(from: before, to: list)
        #expect(changes.itemDeletions.isEmpty && changes.itemInsertions.isEmpty && changes.itemMoves.isEmpty)
        #expect(changes.itemReloads.isEmpty && changes.itemReconfigures.isEmpty)
        #expect(changes.sectionDeletions.isEmpty && changes.sectionInsertions.isEmpty && changes.sectionMoves.isEmpty)
        #expect(state.appearance == appearance && state.pageValues.appearance == appearance)
        #expect(state.details(of: list) == appearance.title)
    }

    @Test("each appearance's rows: edge to edge (plain, grouped, sidebar plain), inset 20 (inset grouped) or 10 (sidebar), at 390 and 1280 px",
          arguments: ListAppearance.allCases, widths)
    func rowInsets(_ appearance: ListAppearance, width: Double) throws {
        let list = try ListAppearances().initialSnapshot()
        let result = Self.solve(appearance, width: width, list: list)
        let inset: Double = switch appearance {
        case .plain, .grouped, .sidebarPlain: 0
        case .insetGrouped: 20
        case .sidebar: 10
        }
        for section in list.sectionIdentifiers.indices {
            for item in 0..<6 {
                let frame = try #require(result.itemFrame(at: ItemPath(section: section, item: item)))
                #expect(abs(frame.x - inset) < 0.5 && abs(frame.width - (width - 2 * inset)) < 0.5, "\(appearance) row \(section).\(item): \(frame)")
                #expect(abs(frame.height - ListMetrics.rowHeight) < 0.5)
            }
            let header = try #require(result.supplementary(ofKind: LayoutElementKind.sectionHeader, at: ItemPath(section: section, item: 0)))
            let first = try #require(result.itemFrame(at: ItemPath(section: section, item: 0)))
            #expect(abs(header.frame.maxY - first.y) < 0.5, "\(appearance): the header sits right above its first row")
        }
    }

    @Test("a section's header height and the gap between sections follow UIKit's metrics", arguments: ListAppearance.allCases)
    func headersAndGaps(_ appearance: ListAppearance) throws {
        let list = try ListAppearances().initialSnapshot()
        let result = Self.solve(appearance, width: 390, list: list)
        let header = try #require(result.supplementary(ofKind: LayoutElementKind.sectionHeader, at: ItemPath(section: 1, item: 0)))
        let lastRowAbove = try #require(result.itemFrame(at: ItemPath(section: 0, item: 5)))
        let (height, gap): (Double, Double) = switch appearance {
        case .plain: (ListMetrics.plainHeaderHeight, 0)
        case .grouped, .insetGrouped: (ListMetrics.groupedHeaderHeight, ListMetrics.groupedSectionGap)
        case .sidebar, .sidebarPlain: (ListMetrics.sidebarHeaderHeight, 0)
        }
        #expect(abs(header.frame.height - height) < 0.5)
        #expect(abs(header.frame.y - lastRowAbove.maxY - gap) < 0.5, "\(appearance): \(header.frame.y) after \(lastRowAbove.maxY)")
    }

    @Test("every section has one background exactly behind its rows, of one kind in every appearance (a switch moves it)",
          arguments: ListAppearance.allCases, widths)
    func sectionBackgrounds(_ appearance: ListAppearance, width: Double) throws {
        let list = try ListAppearances().initialSnapshot()
        let result = Self.solve(appearance, width: width, list: list)
        let decorations = Self.elements(result).filter { if case .decoration = $0.category { true } else { false } }
        #expect(decorations.map(\.indexPath.section) == Array(list.sectionIdentifiers.indices))
        for decoration in decorations {
            #expect(decoration.category == .decoration(kind: ListAppearance.sectionBackgroundKind))
            let section = decoration.indexPath.section
            let first = try #require(result.itemFrame(at: ItemPath(section: section, item: 0)))
            let last = try #require(result.itemFrame(at: ItemPath(section: section, item: 5)))
            #expect(abs(decoration.frame.x - first.x) < 0.5 && abs(decoration.frame.width - first.width) < 0.5)
            #expect(abs(decoration.frame.y - first.y) < 0.5 && abs(decoration.frame.maxY - last.maxY) < 0.5, "\(appearance) \(section): \(decoration.frame)")
        }
    }

    @Test("the appearance round-trips through the saved state", arguments: ListAppearance.allCases)
    func stateRoundTrips(_ appearance: ListAppearance) throws {
        var state = ListAppearances()
        var list = try state.initialSnapshot()
        try state.perform(.appearance(style: appearance), on: &list)
        let saved = try JSONEncoder().encode(state)
        let object = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect(object as? [String: String] == ["appearance": appearance.rawValue])
        #expect(try JSONDecoder().decode(ListAppearances.self, from: saved).appearance == appearance)
    }

    @Test("a new list opens plain, as Apple's sample does")
    func opensPlain() {
        #expect(ListAppearances().appearance == .plain)
    }
}
