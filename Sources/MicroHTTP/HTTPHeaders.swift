/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "text/plain"]
/// headers["content-type"]             // "text/plain"
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers.add(name: "Set-Cookie", value: "b=2")
/// headers.values(for: "set-cookie")   // ["a=1", "b=2"]
/// ```
/// Lookups are linear scans: a request has a few dozen fields at most.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field, as sent (the name keeps its case).
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name` (case-insensitive); setting replaces every field of that name,
    /// and `nil` removes them.
    /// - Complexity: O(n) in the number of fields.
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesMatch($0.name, name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value for `name`, in order. - Complexity: O(n).
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` is present. - Complexity: O(n).
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.namesMatch($0.name, name) }
    }

    /// Appends a field, keeping any existing ones of the same name (e.g. `Set-Cookie`).
    /// Room for `count` fields, so that adding them grows nothing.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces the first field named `name` and removes the others, or appends one.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { Self.namesMatch($0.name, name) }) {
            fields[index].value = value
            var i = fields.index(after: index)
            while i < fields.endIndex {
                if Self.namesMatch(fields[i].name, name) { fields.remove(at: i) } else { i += 1 }
            }
        } else {
            add(name: name, value: value)
        }
    }

    public mutating func remove(name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var count: Int { fields.count }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison (header names are ASCII tokens).
    static func namesMatch(_ a: String, _ b: String) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            if lowercase(x) != lowercase(y) { return false }
        }
        return true
    }

    private static func lowercase(_ c: UInt8) -> UInt8 {
        (c >= 0x41 && c <= 0x5A) ? c | 0x20 : c
    }
}
