import DiffableWeb
/// The mountain catalog as a three-level tree by height: 1,000-m bands (“8,000–8,999 m”), the
/// 100-m bands within them (“8,800–8,899 m”), and the mountains of each, highest first. Only
/// bands that hold a mountain of the catalog appear. Built once and shared by every session:
/// it is the data, not anyone's view of it (which parents are expanded lives in each
/// session's data source).
///
/// Identifiers: `h<low>-<high>` for a band (`h8000-8999`, `h8800-8899`; the width tells the
/// level), the catalog's own id for a mountain (`m0001`).
struct HeightOutline: Sendable {
    enum Kind: String, Sendable {
        /// A 1,000-m band (level 1).
        case band
        /// A 100-m band (level 2).
        case range
        case mountain
    }

    struct Node: Sendable {
        let id: String
        let kind: Kind
        let label: String
        /// A count for bands, the height for a mountain.
        let detail: String
        /// 1 for the top level (as `aria-level` counts).
        let level: Int
        let parent: String?
        let children: [String]
        /// 1-based position among its siblings, and how many siblings there are (with itself).
        let position: Int
        let siblings: Int
        /// Mountains under it (1 for a mountain).
        let mountainCount: Int
        /// The height in metres of a mountain, the low end of a band.
        let height: Int
    }

    /// The 1,000-m bands, highest first.
    let roots: [String]
    private let nodes: [String: Node]

    init(catalog: MountainCatalog) {
        var nodes: [String: Node] = [:]
        let byThousand = Dictionary(grouping: catalog.mountains) { Self.floor($0.height, to: 1_000) }
        let thousands = byThousand.keys.sorted(by: >)
        for (bandIndex, low) in thousands.enumerated() {
            let bandID = Self.bandID(low, width: 1_000)
            let mountains = byThousand[low] ?? []
            let byHundred = Dictionary(grouping: mountains) { Self.floor($0.height, to: 100) }
            let hundreds = byHundred.keys.sorted(by: >)
            var rangeIDs: [String] = []
            for (rangeIndex, rangeLow) in hundreds.enumerated() {
                let rangeID = Self.bandID(rangeLow, width: 100)
                rangeIDs.append(rangeID)
                // Highest first; equal heights by name, then by id (names repeat).
                let sorted = (byHundred[rangeLow] ?? []).sorted { ($1.height, $0.name, $0.id) < ($0.height, $1.name, $1.id) }
                for (index, mountain) in sorted.enumerated() {
                    nodes[mountain.id] = Node(id: mountain.id, kind: .mountain, label: mountain.name, detail: "\(mountain.height.grouped) m",
                                              level: 3, parent: rangeID, children: [], position: index + 1, siblings: sorted.count,
                                              mountainCount: 1, height: mountain.height)
                }
                nodes[rangeID] = Node(id: rangeID, kind: .range, label: Self.label(rangeLow, width: 100), detail: Self.count(sorted.count),
                                      level: 2, parent: bandID, children: sorted.map(\.id), position: rangeIndex + 1,
                                      siblings: hundreds.count, mountainCount: sorted.count, height: rangeLow)
            }
            nodes[bandID] = Node(id: bandID, kind: .band, label: Self.label(low, width: 1_000), detail: Self.count(mountains.count),
                                 level: 1, parent: nil, children: rangeIDs, position: bandIndex + 1, siblings: thousands.count,
                                 mountainCount: mountains.count, height: low)
        }
        self.roots = thousands.map { Self.bandID($0, width: 1_000) }
        self.nodes = nodes
    }

    func node(_ id: String) -> Node? { nodes[id] }

    /// Every band and mountain.
    var count: Int { nodes.count }

    // MARK: Naming

    private static func floor(_ height: Int, to step: Int) -> Int {
        height >= 0 ? height / step * step : -((-height + step - 1) / step * step)
    }

    private static func bandID(_ low: Int, width: Int) -> String { "h\(low)-\(low + width - 1)" }

    /// “8,000–8,999 m”.
    private static func label(_ low: Int, width: Int) -> String { "\(low.grouped)–\((low + width - 1).grouped) m" }

    private static func count(_ mountains: Int) -> String { mountains == 1 ? "1 mountain" : "\(mountains.grouped) mountains" }
}
