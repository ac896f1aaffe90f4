/// Every case of a `CodingKey` enum without payloads, in declaration order: the names of a
/// ``WebList``'s actions, read from the coding keys the compiler synthesized for its `Action`
/// enum (one key a case), so that no name is written twice.
///
/// A `CaseIterable` key type gives its cases. Any other must be an enum without payloads of at
/// most 65,536 cases: Swift stores its value as a tag 0 … n − 1 in 0, 1 or 2 bytes, and the
/// first unused tag, n, is `nil` of its optional, so n is read from `Optional<Key>.none` and
/// each case made from its tag (after checking, from the type's metadata, that it is an enum).
/// A key type of another shape (a struct) gives `nil`.
enum CodingKeyCases {
    static func all<Key: CodingKey>(_ type: Key.Type) -> [Key]? {
        if let iterable = type as? any CaseIterable.Type {
            return (iterable.allCases as any Collection).map { $0 as? Key }.compactMap { $0 }
        }
        guard isEnum(type) else { return nil }
        switch MemoryLayout<Key>.size {
        case 0:
            // One case and no payload: its only value has no bytes.
            return [withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { $0.baseAddress.map { UnsafeRawPointer($0).load(as: Key.self) } }]
                .compactMap { $0 }
        case 1 where MemoryLayout<Key?>.size == 1:
            let count = Int(unsafeBitCast(Key?.none, to: UInt8.self))
            return (0..<count).map { unsafeBitCast(UInt8($0), to: Key.self) }
        case 2 where MemoryLayout<Key?>.size == 2:
            let count = Int(unsafeBitCast(Key?.none, to: UInt16.self))
            return (0..<count).map { unsafeBitCast(UInt16($0), to: Key.self) }
        default:
            return nil
        }
    }

    /// Whether the type's metadata is an enum's (kind 0x201, the Swift ABI's `MetadataKind.Enum`).
    private static func isEnum(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) == 0x201
    }
}
