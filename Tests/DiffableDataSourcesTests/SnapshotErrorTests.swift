import Testing
@testable import DiffableDataSources

/// One rejected operation: what it does, and the error it must throw.
struct RejectedOperation: CustomTestStringConvertible, Sendable {
    let name: String
    let expected: SnapshotError
    let operation: @Sendable (inout Snapshot<String, Int>) throws -> Void
    var testDescription: String { name }
}

@Suite("Snapshot: every error names the culprit and changes nothing")
struct SnapshotErrorTests {
    /// Sections a: [1, 2, 3], b: [4]; item 1 marked reloaded, 2 reconfigured, section a reloaded.
    static func start() throws -> Snapshot<String, Int> {
        var snapshot = try makeSnapshot(["a": [1, 2, 3], "b": [4]])
        try snapshot.reloadItems([1])
        try snapshot.reconfigureItems([2])
        try snapshot.reloadSections(["a"])
        return snapshot
    }

    static let cases: [RejectedOperation] = [
        .init(name: "append duplicate within the call", expected: .duplicateItems(["7"])) { try $0.appendItems([7, 7]) },
        .init(name: "append item already present", expected: .duplicateItems(["1"])) { try $0.appendItems([5, 1]) },
        .init(name: "append to unknown section", expected: .unknownSections(["z"])) { try $0.appendItems([5], toSection: "z") },
        .init(name: "insert before unknown item", expected: .unknownItems(["99"])) { try $0.insertItems([5], beforeItem: 99) },
        .init(name: "insert after unknown item", expected: .unknownItems(["99"])) { try $0.insertItems([5], afterItem: 99) },
        .init(name: "insert relative to itself", expected: .itemRelativeToItself("2")) { try $0.insertItems([5, 2], beforeItem: 2) },
        .init(name: "insert duplicate", expected: .duplicateItems(["4"])) { try $0.insertItems([5, 4], afterItem: 1) },
        .init(name: "delete unknown item among known ones", expected: .unknownItems(["99"])) { try $0.deleteItems([1, 99]) },
        .init(name: "move item relative to itself", expected: .itemRelativeToItself("3")) { try $0.moveItem(3, beforeItem: 3) },
        .init(name: "move unknown item", expected: .unknownItems(["99"])) { try $0.moveItem(99, afterItem: 1) },
        .init(name: "move before unknown item", expected: .unknownItems(["99"])) { try $0.moveItem(1, beforeItem: 99) },
        .init(name: "reload unknown item", expected: .unknownItems(["99"])) { try $0.reloadItems([3, 99]) },
        .init(name: "reconfigure unknown item", expected: .unknownItems(["98", "99"])) { try $0.reconfigureItems([98, 99]) },
        .init(name: "append duplicate section within the call", expected: .duplicateSections(["c"])) { try $0.appendSections(["c", "c"]) },
        .init(name: "append section already present", expected: .duplicateSections(["a"])) { try $0.appendSections(["c", "a"]) },
        .init(name: "insert section before unknown", expected: .unknownSections(["z"])) { try $0.insertSections(["c"], beforeSection: "z") },
        .init(name: "insert section after unknown", expected: .unknownSections(["z"])) { try $0.insertSections(["c"], afterSection: "z") },
        .init(name: "insert section relative to itself", expected: .sectionRelativeToItself("a")) { try $0.insertSections(["a"], afterSection: "a") },
        .init(name: "insert duplicate section", expected: .duplicateSections(["b"])) { try $0.insertSections(["c", "b"], afterSection: "a") },
        .init(name: "delete unknown section among known ones", expected: .unknownSections(["z"])) { try $0.deleteSections(["a", "z"]) },
        .init(name: "move section relative to itself", expected: .sectionRelativeToItself("a")) { try $0.moveSection("a", afterSection: "a") },
        .init(name: "move unknown section", expected: .unknownSections(["z"])) { try $0.moveSection("z", beforeSection: "a") },
        .init(name: "move section after unknown", expected: .unknownSections(["z"])) { try $0.moveSection("a", afterSection: "z") },
        .init(name: "reload unknown section", expected: .unknownSections(["z"])) { try $0.reloadSections(["z"]) },
    ]

    @Test("a rejected operation throws its error and leaves the snapshot exactly as it was", arguments: cases)
    func rejected(_ case: RejectedOperation) throws {
        let before = try Self.start()
        var snapshot = before
        #expect(throws: `case`.expected) { try `case`.operation(&snapshot) }
        #expect(snapshot == before)
        #expect(snapshot.reloadedItemIdentifiers == [1])
        #expect(snapshot.reconfiguredItemIdentifiers == [2])
        #expect(snapshot.reloadedSectionIdentifiers == ["a"])
        #expect(snapshot.description == before.description)
        #expect(snapshot._brokenInvariant() == nil)
    }

    @Test("appending to a snapshot without sections throws noSectionToAppendTo")
    func noSection() {
        var snapshot = Snapshot<String, Int>()
        #expect(throws: SnapshotError.noSectionToAppendTo) { try snapshot.appendItems([1]) }
        #expect(snapshot.numberOfItems == 0)
    }

    @Test("queries on an unknown section throw instead of trapping")
    func unknownSectionQueries() throws {
        let snapshot = try Self.start()
        #expect(throws: SnapshotError.unknownSections(["z"])) { try snapshot.itemIdentifiers(inSection: "z") }
        #expect(throws: SnapshotError.unknownSections(["z"])) { try snapshot.numberOfItems(inSection: "z") }
    }

    @Test("error messages name the identifiers, and long lists are shortened")
    func messages() {
        #expect(SnapshotError.duplicateItems(["a", "b"]).description == "Duplicate item identifiers: a, b")
        let many = SnapshotError.unknownItems((1...12).map(String.init)).description
        #expect(many == "Unknown item identifiers: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 … (12 in all)")
        #expect(SnapshotError.noSectionToAppendTo.code == "no_section")
    }
}
