import Testing
@testable import DiffableDataSources

@Suite("SectionSnapshot: outlines")
struct SectionSnapshotTests {
    /// Mountains ▸ (Everest, K2 ▸ (K2-base)), Rivers ▸ (Nile)
    static func outline() throws -> SectionSnapshot<String> {
        var outline = SectionSnapshot<String>()
        try outline.append(["Mountains", "Rivers"])
        try outline.append(["Everest", "K2"], to: "Mountains")
        try outline.append(["K2-base"], to: "K2")
        try outline.append(["Nile"], to: "Rivers")
        return outline
    }

    @Test("items are depth-first; roots, levels and parents")
    func structure() throws {
        let outline = try Self.outline()
        #expect(outline.items == ["Mountains", "Everest", "K2", "K2-base", "Rivers", "Nile"])
        #expect(outline.rootItems == ["Mountains", "Rivers"])
        #expect(try outline.level(of: "K2-base") == 2)
        #expect(try outline.level(of: "Rivers") == 0)
        #expect(try outline.parent(of: "K2-base") == "K2")
        #expect(try outline.parent(of: "Mountains") == nil)
        #expect(outline.index(of: "Rivers") == 4)
        #expect(outline.index(of: "Sea") == nil)
        #expect(outline.contains("Nile") && !outline.contains("Sea"))
    }

    @Test("a collapsed parent hides all its descendants")
    func visibility() throws {
        var outline = try Self.outline()
        #expect(outline.visibleItems == ["Mountains", "Rivers"])
        try outline.expand(["Mountains"])
        #expect(outline.visibleItems == ["Mountains", "Everest", "K2", "Rivers"])
        try outline.expand(["K2"])
        #expect(outline.visibleItems == ["Mountains", "Everest", "K2", "K2-base", "Rivers"])
        #expect(outline.isVisible("K2-base") && outline.isExpanded("K2"))
        try outline.collapse(["Mountains"])
        #expect(outline.visibleItems == ["Mountains", "Rivers"])
        #expect(!outline.isVisible("K2-base"), "hidden though its own parent is expanded")
        #expect(outline.isExpanded("K2"), "collapsing an ancestor keeps a child's own state")
        #expect(!outline.isVisible("Sea") && !outline.isExpanded("Sea"))
    }

    @Test("insert before and after, as siblings")
    func insertSiblings() throws {
        var outline = try Self.outline()
        try outline.insert(["Annapurna"], before: "Everest")
        try outline.insert(["Lhotse"], after: "K2")
        try outline.insert(["Deserts"], after: "Mountains")
        #expect(try outline.children(of: "Mountains") == ["Annapurna", "Everest", "K2", "Lhotse"])
        #expect(outline.rootItems == ["Mountains", "Deserts", "Rivers"])
        #expect(try outline.parent(of: "Lhotse") == "Mountains")
    }

    @Test("delete removes descendants; deleteAll empties")
    func delete() throws {
        var outline = try Self.outline()
        try outline.delete(["K2", "Nile"])
        #expect(outline.items == ["Mountains", "Everest", "Rivers"])
        #expect(!outline.contains("K2-base"))
        outline.deleteAll()
        #expect(outline.items.isEmpty && outline.rootItems.isEmpty)
    }

    @Test("snapshot(of:includingParent:) extracts a subtree")
    func subtree() throws {
        var outline = try Self.outline()
        try outline.expand(["K2"])
        let children = try outline.snapshot(of: "Mountains")
        #expect(children.rootItems == ["Everest", "K2"])
        #expect(children.items == ["Everest", "K2", "K2-base"])
        #expect(try children.parent(of: "K2") == nil)
        #expect(children.isExpanded("K2"))
        let withParent = try outline.snapshot(of: "Mountains", includingParent: true)
        #expect(withParent.rootItems == ["Mountains"])
        #expect(try withParent.level(of: "K2-base") == 2)
    }

    @Test("appending and inserting whole section snapshots")
    func graft() throws {
        var outline = try Self.outline()
        var lakes = SectionSnapshot<String>()
        try lakes.append(["Lakes"])
        try lakes.append(["Baikal"], to: "Lakes")
        try outline.append(lakes, to: "Rivers")
        #expect(try outline.level(of: "Baikal") == 2)
        var seas = SectionSnapshot<String>()
        try seas.append(["Seas"])
        try outline.insert(seas, before: "Rivers")
        #expect(outline.rootItems == ["Mountains", "Seas", "Rivers"])
    }

    static let rejected: [(String, SnapshotError, @Sendable (inout SectionSnapshot<String>) throws -> Void)] = [
        ("append duplicate", .duplicateItems(["K2"]), { try $0.append(["K2"], to: "Rivers") }),
        ("append duplicate within call", .duplicateItems(["X"]), { try $0.append(["X", "X"]) }),
        ("append to unknown parent", .unknownItems(["Sea"]), { try $0.append(["X"], to: "Sea") }),
        ("insert before unknown", .unknownItems(["Sea"]), { try $0.insert(["X"], before: "Sea") }),
        ("insert relative to itself", .itemRelativeToItself("K2"), { try $0.insert(["K2"], after: "K2") }),
        ("delete unknown among known", .unknownItems(["Sea"]), { try $0.delete(["K2", "Sea"]) }),
        ("expand unknown", .unknownItems(["Sea"]), { try $0.expand(["Mountains", "Sea"]) }),
        ("collapse unknown", .unknownItems(["Sea"]), { try $0.collapse(["Sea"]) }),
    ]

    @Test("a rejected outline operation throws and changes nothing", arguments: 0..<rejected.count)
    func rejectedOperation(index: Int) throws {
        let (_, expected, operation) = Self.rejected[index]
        let before = try Self.outline()
        var outline = before
        #expect(throws: expected) { try operation(&outline) }
        #expect(outline == before)
    }

    @Test("level and parent of an unknown item throw")
    func unknownQueries() throws {
        let outline = try Self.outline()
        #expect(throws: SnapshotError.unknownItems(["Sea"])) { try outline.level(of: "Sea") }
        #expect(throws: SnapshotError.unknownItems(["Sea"])) { try outline.parent(of: "Sea") }
        #expect(throws: SnapshotError.unknownItems(["Sea"])) { try outline.snapshot(of: "Sea") }
    }

    @Test("deep outlines do not overflow the stack")
    func deep() throws {
        var outline = SectionSnapshot<Int>()
        try outline.append([0])
        for i in 1..<20_000 { try outline.append([i], to: i - 1) }
        #expect(outline.items.count == 20_000)
        #expect(try outline.level(of: 19_999) == 19_999)
    }

    @Test("visual description shows the tree")
    func visual() throws {
        var outline = try Self.outline()
        try outline.expand(["Mountains"])
        #expect(outline.visualDescription == "- Mountains\n  • Everest\n  + K2\n    • K2-base\n+ Rivers\n  • Nile")
    }
}
