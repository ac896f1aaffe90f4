import DiffableWeb

/// The insertion sort's rows as a snapshot, and the sort itself, on identifiers alone: section
/// `row-<r>` is row r, item `row-<r>-node-<v>` the node of value v in it (0…n − 1). A node keeps
/// its identifier wherever it moves, so every step is a move of the data source, never a
/// delete and an insert.
enum SortingRows {
    /// A node's place in the rows: its row and its value, read from its identifier.
    struct Node: Hashable {
        let row: Int
        let value: Int

        var id: String { "row-\(row)-node-\(value)" }

        /// The node an identifier names (`row-3-node-7`), or `nil`: a script may put any string in the list.
        init?(_ id: String) {
            let parts = id.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "row", parts[2] == "node",
                  let row = Int(parts[1]), let value = Int(parts[3]), row >= 0, value >= 0,
                  "\(row)" == parts[1], "\(value)" == parts[3] else { return nil }
            self.init(row: row, value: value)
        }

        init(row: Int, value: Int) {
            self.row = row
            self.value = value
        }
    }

    static func section(_ row: Int) -> String { "row-\(row)" }

    /// `rows` rows, each the values 0…nodes − 1 in a random order.
    /// - Complexity: O(rows × nodes).
    static func shuffled(rows: Int, nodes: Int, using generator: inout some RandomNumberGenerator) -> Snapshot<String, String> {
        var list = Snapshot<String, String>()
        // Fresh identifiers by construction: rows and values are distinct.
        try? list.appendSections((0..<rows).map(section))
        for row in 0..<rows {
            try? list.appendItems((0..<nodes).shuffled(using: &generator).map { Node(row: row, value: $0).id }, toSection: section(row))
        }
        return list
    }

    /// The next insertion of one row (its items in order): the first node smaller than the one
    /// before it goes in front of the first node of the ascending run before it that is larger
    /// (equal values keep their order). `nil` when the row ascends. A node a script put in
    /// with an identifier of its own sorts last.
    /// - Complexity: O(n) for n nodes in the row.
    static func insertion(in row: [String]) -> (node: String, before: String)? {
        let values = row.map { Node($0)?.value ?? Int.max }
        guard let index = values.indices.dropFirst().first(where: { values[$0] < values[$0 - 1] }) else { return nil }
        // The run before `index` ascends and ends above values[index]: a larger node exists.
        let target = values[..<index].firstIndex { $0 > values[index] } ?? index - 1
        return (row[index], row[target])
    }

    /// One step of the sort: every row that does not ascend yet makes its next insertion, one
    /// `moveItem` within its section, so the step's changeset holds moves only.
    /// - Returns: how many rows moved a node (0: every row ascends).
    /// - Complexity: O(n) for n nodes.
    @discardableResult
    static func step(_ list: inout Snapshot<String, String>) throws -> Int {
        var moved = 0
        for section in list.sectionIdentifiers {
            guard let (node, before) = insertion(in: try list.itemIdentifiers(inSection: section)) else { continue }
            try list.moveItem(node, beforeItem: before)
            moved += 1
        }
        return moved
    }

    /// Whether every row ascends.
    /// - Complexity: O(n) for n nodes.
    static func isSorted(_ list: Snapshot<String, String>) -> Bool {
        list.sectionIdentifiers.allSatisfy { insertion(in: (try? list.itemIdentifiers(inSection: $0)) ?? []) == nil }
    }
}
