/// What went wrong when a snapshot operation was rejected.
///
/// UIKit traps on these mistakes; DiffableWeb throws instead, so a bad request from a
/// browser or a script becomes a clear error rather than a crash. Every case names the
/// offending identifiers (rendered with `String(describing:)`), and a throwing call
/// leaves the snapshot exactly as it was.
///
/// ```swift
/// var snapshot = Snapshot<String, Int>()
/// do { try snapshot.appendItems([1]) }
/// catch let error as SnapshotError { print(error) }  // "Cannot append items: the snapshot has no sections"
/// ```
public enum SnapshotError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Items that appear twice in one call, or that the snapshot already contains.
    case duplicateItems([String])
    /// Sections that appear twice in one call, or that the snapshot already contains.
    case duplicateSections([String])
    /// Items the snapshot does not contain.
    case unknownItems([String])
    /// Sections the snapshot does not contain.
    case unknownSections([String])
    /// `appendItems` without a section, on a snapshot that has none.
    case noSectionToAppendTo
    /// An item inserted or moved relative to itself.
    case itemRelativeToItself(String)
    /// A section inserted or moved relative to itself.
    case sectionRelativeToItself(String)
    /// An index path or index outside the snapshot (used when applying a changeset).
    case indexOutOfRange(String)

    /// A stable machine-readable code (for JSON errors).
    public var code: String {
        switch self {
        case .duplicateItems: "duplicate_items"
        case .duplicateSections: "duplicate_sections"
        case .unknownItems: "unknown_items"
        case .unknownSections: "unknown_sections"
        case .noSectionToAppendTo: "no_section"
        case .itemRelativeToItself: "item_relative_to_itself"
        case .sectionRelativeToItself: "section_relative_to_itself"
        case .indexOutOfRange: "index_out_of_range"
        }
    }

    public var description: String {
        switch self {
        case .duplicateItems(let ids): "Duplicate item identifiers: \(Self.list(ids))"
        case .duplicateSections(let ids): "Duplicate section identifiers: \(Self.list(ids))"
        case .unknownItems(let ids): "Unknown item identifiers: \(Self.list(ids))"
        case .unknownSections(let ids): "Unknown section identifiers: \(Self.list(ids))"
        case .noSectionToAppendTo: "Cannot append items: the snapshot has no sections"
        case .itemRelativeToItself(let id): "Cannot insert or move item \(id) relative to itself"
        case .sectionRelativeToItself(let id): "Cannot insert or move section \(id) relative to itself"
        case .indexOutOfRange(let what): "Index out of range: \(what)"
        }
    }

    /// At most the first ten identifiers, so a huge batch still gives a readable message.
    private static func list(_ ids: [String]) -> String {
        let shown = ids.prefix(10).joined(separator: ", ")
        return ids.count > 10 ? "\(shown) … (\(ids.count) in all)" : shown
    }
}

extension SnapshotError {
    @usableFromInline static func duplicateItems<T>(of ids: some Sequence<T>) -> SnapshotError {
        .duplicateItems(ids.map { String(describing: $0) })
    }
    @usableFromInline static func duplicateSections<T>(of ids: some Sequence<T>) -> SnapshotError {
        .duplicateSections(ids.map { String(describing: $0) })
    }
    @usableFromInline static func unknownItems<T>(of ids: some Sequence<T>) -> SnapshotError {
        .unknownItems(ids.map { String(describing: $0) })
    }
    @usableFromInline static func unknownSections<T>(of ids: some Sequence<T>) -> SnapshotError {
        .unknownSections(ids.map { String(describing: $0) })
    }
}
