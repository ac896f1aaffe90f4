#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// UIKit's spelling of two-level index paths, so code written against UIKit reads the same here.
extension IndexPath {
    /// An index path to `item` in `section`, as UIKit writes it.
    ///
    /// ```swift
    /// let path = IndexPath(item: 3, section: 0)
    /// path.item     // 3
    /// ```
    @inlinable public init(item: Int, section: Int) {
        // Built by appending rather than from an array literal: two appends stay in
        // IndexPath's inline two-element storage and never touch the heap.
        self.init(index: section)
        append(item)
    }

    /// The section index (the first index).
    public var section: Int { self[0] }

    /// The item index within its section (the second index).
    public var item: Int { self[1] }
}
