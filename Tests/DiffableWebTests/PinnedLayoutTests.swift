import CompositionalLayout
import DiffableDataSources
import Foundation
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Pinned headers and decorations reach the browser with the solver's frames (docs/protocol.md,
/// "Decorations" and "Pinned headers and footers").
@Suite("Web: pinned headers and section backgrounds in windows and events")
struct PinnedLayoutTests {
    static let phone = LayoutContainer(width: 390, height: 844)

    /// Three list sections of `rows` rows (some screens each), with a pinned header, a pinned
    /// footer on the last, and a card behind each section's rows.
    static func layout(rows: [Int] = [200, 200, 200]) -> ListLayout {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections(["a", "b", "c"])
        for (section, count) in zip(["a", "b", "c"], rows) {
            try? snapshot.appendItems((0..<count).map { "\(section)\($0)" }, toSection: section)
        }
        let layout = CompositionalLayout { index, environment in
            var configuration = ListConfiguration(appearance: .insetGrouped)
            configuration.headerMode = .supplementary
            configuration.footerMode = index == 2 ? .supplementary : .none
            configuration.pinsHeaders = true
            var section = LayoutSection.list(using: configuration, layoutEnvironment: environment)
            if index == 2 {
                for i in section.boundarySupplementaryItems.indices where section.boundarySupplementaryItems[i].alignment.isBottom {
                    section.boundarySupplementaryItems[i].pinToVisibleBounds = true
                }
            }
            var card = LayoutDecorationItem.background(elementKind: "card")
            card.contentInsets = DirectionalEdgeInsets(top: ListMetrics.groupedHeaderHeight, leading: 20, bottom: 0, trailing: 20)
            section.decorationItems = [card]
            return section
        }
        return ListLayout(snapshot: snapshot, layout: layout, container: phone)
    }

    /// The window of a viewport whose top is at `top` (a screen of overscan on each side).
    static func window(top: Double) -> LayoutRect { StreamWindow(container: phone, top: top).rect }

    @Test("a window holds its sections' decorations at the solver's frames, behind (before) their headers and items")
    func decorations() throws {
        let layout = Self.layout()
        let cells = layout.cells(in: Self.window(top: 0))
        let decorations = cells.filter { $0.kind.decorationKind != nil }
        let solved = layout.result.decorations.filter { $0.frame.intersects(Self.window(top: 0)) }
        #expect(!solved.isEmpty)
        #expect(decorations.map(\.id) == solved.map { "decoration:card:\(["a", "b", "c"][$0.section])" })
        #expect(decorations.map(\.frame) == solved.map(\.frame))
        let card = try #require(decorations.first { $0.section == "a" })
        #expect(card.kind == .decoration("card"))
        #expect(cells.first?.id == card.id, "a section's decoration comes first in document order")
        for item in cells where item.kind == .item && item.section == "a" {
            #expect(card.frame.minX <= item.frame.minX && item.frame.maxX <= card.frame.maxX
                    && card.frame.minY <= item.frame.minY && item.frame.maxY <= card.frame.maxY, "\(item.id) lies on the card")
        }
        #expect(layout.cell(card.id) == card, "found by id, for a window it leaves")
    }

    @Test("a pinned header is in every window its section's band meets, at its resting frame, with the band")
    func pinnedHeaderInWindow() throws {
        let layout = Self.layout()
        let section = layout.result.sections[1]
        let header = try #require(layout.result.supplementary(ofKind: LayoutElementKind.sectionHeader, at: ItemPath(section: 1, item: 0)))
        // Far into section b: its header's resting frame is screens above the window.
        let top = section.frame.minY + 3 * Self.phone.height
        #expect(top + 2 * Self.phone.height < section.frame.maxY)
        #expect(!header.frame.intersects(Self.window(top: top)))
        let cells = layout.cells(in: Self.window(top: top))
        let cell = try #require(cells.first { $0.id == "header:b" })
        #expect(cell.frame == header.frame)
        #expect(cell.pin == ListLayout.Pin(edge: .top, minY: section.frame.minY, maxY: section.frame.maxY))
        // Where the browser draws it (pinned.js) is where the solver says it sticks.
        let stuck = min(max(header.frame.minY, top), section.frame.maxY - header.frame.height)
        #expect(layout.result.pinnedFrame(of: header, contentOffsetY: top).minY == stuck)
        #expect(stuck == top, "it sticks to the viewport's top")
        #expect(!cells.contains { $0.id == "header:a" || $0.id == "header:c" }, "sections the window misses: no header")
    }

    @Test("a pinned footer is marked bottom; an unpinned header carries no pin")
    func edges() throws {
        let layout = Self.layout()
        let last = layout.result.sections[2]
        let cells = layout.cells(in: LayoutRect(x: 0, y: last.frame.minY, width: 390, height: last.frame.height))
        #expect(cells.first { $0.id == "footer:c" }?.pin?.edge == .bottom)
        #expect(cells.first { $0.id == "header:c" }?.pin?.edge == .top)
        let plain = ListLayout(snapshot: layout.snapshot, layout: CompositionalLayout { _, environment in
            var configuration = ListConfiguration(appearance: .plain)
            configuration.headerMode = .supplementary
            return LayoutSection.list(using: configuration, layoutEnvironment: environment)
        }, container: Self.phone)
        let headers = plain.cells(in: Self.window(top: 0)).filter { $0.kind == .header }
        #expect(!headers.isEmpty && headers.allSatisfy { $0.pin == nil })
    }

    @Test("window and changeset events carry decorations as cells and the window's pinned headers with their bands")
    func events() throws {
        let layout = Self.layout()
        let section = layout.result.sections[1]
        let window = StreamWindow(container: Self.phone, top: section.frame.minY + 3 * Self.phone.height)
        let update = WindowUpdate(layout: layout, rect: window.rect, held: [:]) { _ in "" }
        let json = WindowEvent.json(version: 1, streamID: "s", window: window, layout: layout, update: update, reset: true)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pinned = try #require(body["pinned"] as? [[String: Any]])
        #expect(pinned.count == 1)
        #expect(pinned.first?["id"] as? String == "header:b")
        #expect(pinned.first?["edge"] as? String == "top")
        #expect(pinned.first?["band"] as? [Double] == [section.frame.minY, section.frame.maxY].map(WireFrame.round))
        let cells = try #require(body["cells"] as? [[String: Any]])
        let card = try #require(cells.first { $0["id"] as? String == "decoration:card:b" })
        #expect(card["kind"] as? String == "decoration")
        #expect(card["decoration"] as? String == "card")
        #expect(card["html"] as? String == "")
        let frame = try #require(card["frame"] as? [String: Double])
        let solved = try #require(layout.result.decorations.first { $0.section == 1 }?.frame)
        #expect(frame["y"] == WireFrame.round(solved.y) && frame["h"] == WireFrame.round(solved.height))
        #expect(cells.contains { $0["id"] as? String == "header:b" })

        // A change that grows section b moves its end, not its header: the band comes again.
        let grown = Self.layout(rows: [200, 260, 200])
        let next = WindowUpdate(layout: grown, rect: window.rect, held: update.held) { _ in "" }
        #expect(!next.cells.contains { if case .moved(let id, _, _) = $0 { id == "header:b" } else { false } })
        #expect(next.pinned.map(\.maxY) == [WireFrame.round(grown.result.sections[1].frame.maxY)])
        let tail = ChangesetEvent.windowTail(layout: grown, update: next)
        let object = "{" + String(decoding: tail.dropFirst(), as: UTF8.self)
        let changeset = try #require(try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any])
        let band = (changeset["pinned"] as? [[String: Any]])?.first?["band"] as? [Double]
        #expect(band == [section.frame.minY, grown.result.sections[1].frame.maxY].map(WireFrame.round))
    }

    @Test("Explore pins its section headers and draws the list's rows on a card")
    func explore() throws {
        let demo = try Explore.descriptor(sharing: [Explore.Content(catalog: try MountainCatalog.bundled())]).make()
        let layout = ListLayout(snapshot: demo.initialSnapshot(), layout: demo.layout(), container: Self.phone)
        let all = layout.result.sections[2]
        let cells = layout.cells(in: LayoutRect(x: 0, y: all.frame.minY, width: 390, height: all.frame.height))
        #expect(cells.first { $0.id == "header:all" }?.pin?.edge == .top)
        let card = try #require(cells.first { $0.id == "decoration:\(Explore.cardKind):all" })
        let rows = cells.filter { $0.kind == .item }
        #expect(rows.count == 60)
        for row in rows {
            #expect(card.frame.minX <= row.frame.minX && row.frame.maxX <= card.frame.maxX
                    && card.frame.minY <= row.frame.minY && row.frame.maxY <= card.frame.maxY)
        }
        #expect(card.frame.minX == rows[0].frame.minX && card.frame.maxX == rows[0].frame.maxX, "the card has the rows' insets")
        let first = layout.cells(in: StreamWindow(container: Self.phone, top: 0).rect)
        #expect(first.first { $0.id == "header:featured" }?.pin != nil)
    }
}
