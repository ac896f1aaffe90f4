import DiffableWeb
import Foundation

/// A mountain of the shipped data set (`Resources/mountains.csv`).
public struct Mountain: Sendable, Hashable, Identifiable {
    /// A stable identifier, never the name (names repeat).
    public var id: String
    public var name: String
    /// Height above sea level in metres.
    public var height: Int

    public init(id: String, name: String, height: Int) {
        self.id = id
        self.name = name
        self.height = height
    }

    /// Apple's sample: an empty filter matches everything; otherwise the lowercased name
    /// contains the lowercased filter.
    public func contains(_ filter: String) -> Bool {
        filter.isEmpty || name.lowercased().contains(filter.lowercased())
    }
}

/// The mountains every session searches, loaded once.
public struct MountainCatalog: Sendable {
    public let mountains: [Mountain]
    private let byID: [String: Mountain]
    /// The mountains sorted by name once, with their lowercased names as UTF-8, so that a
    /// keystroke's query is one pass of byte comparisons and no sort.
    private let sortedByName: [Mountain]
    private let lowercasedNames: [[UInt8]]

    public init(mountains: [Mountain]) {
        self.mountains = mountains
        self.byID = Dictionary(mountains.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = mountains.enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
        self.sortedByName = sorted
        self.lowercasedNames = sorted.map { Array($0.name.lowercased().utf8) }
    }

    public func mountain(id: String) -> Mountain? { byID[id] }

    /// `performQuery` of Apple's sample: the mountains whose lowercased name contains the
    /// lowercased filter, sorted by name (ties keep the data set's order).
    /// - Complexity: O(total length of the names); no sorting per query.
    public func filtered(by filter: String) -> [Mountain] {
        if filter.isEmpty { return sortedByName }
        let needle = Array(filter.lowercased().utf8)
        var result: [Mountain] = []
        for (index, name) in lowercasedNames.enumerated() where Self.contains(name, needle) {
            result.append(sortedByName[index])
        }
        return result
    }

    /// Whether `needle` occurs in `haystack` (UTF-8 of NFC text, so byte equality is
    /// character equality for this data).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                let first = n[0], last = h.count - n.count
                var start = 0
                while start <= last {
                    if h[start] == first {
                        var k = 1
                        while k < n.count && h[start + k] == n[k] { k += 1 }
                        if k == n.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    /// The catalog shipped with the package, parsed once per process.
    public static func bundled() throws -> MountainCatalog {
        try bundledCatalog.get()
    }

    private static let bundledCatalog = Result { () throws -> MountainCatalog in
        guard let url = Bundle.module.url(forResource: "mountains", withExtension: "csv") else {
            throw CatalogError.missing("mountains.csv is not in the DiffableWeb bundle")
        }
        return try MountainCatalog(csv: String(contentsOf: url, encoding: .utf8))
    }

    /// Parses `id,name,height_m` CSV (RFC 4180 quoting).
    public init(csv: String) throws {
        var mountains: [Mountain] = []
        for (number, fields) in CSV.rows(csv).enumerated() where number > 0 && !(fields.count == 1 && fields[0].isEmpty) {
            guard fields.count == 3, let height = Int(fields[2]) else {
                throw CatalogError.malformed(line: number + 1)
            }
            mountains.append(Mountain(id: fields[0], name: fields[1], height: height))
        }
        self.init(mountains: mountains)
    }

    /// A synthetic catalog of `count` mountains built by combining the real names, for
    /// load tests that need more than the real data has (names repeat; ids do not).
    public func scaled(to count: Int) -> MountainCatalog {
        guard !mountains.isEmpty, count > mountains.count else { return self }
        var result = mountains
        var round = 2
        while result.count < count {
            for mountain in mountains where result.count < count {
                result.append(Mountain(id: "\(mountain.id)-\(round)", name: "\(mountain.name) \(round)", height: mountain.height))
            }
            round += 1
        }
        return MountainCatalog(mountains: result)
    }
}

public enum CatalogError: Error, CustomStringConvertible {
    case missing(String)
    case malformed(line: Int)
    public var description: String {
        switch self {
        case .missing(let what): what
        case .malformed(let line): "mountains.csv: malformed line \(line)"
        }
    }
}

/// Just enough RFC 4180 to read our own data file.
enum CSV {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                    } else { quoted = false }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"": quoted = true
            case ",": row.append(field); field = ""
            case "\r": continue
            case "\n": row.append(field); rows.append(row); row = []; field = ""
            default: field.unicodeScalars.append(scalar)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
