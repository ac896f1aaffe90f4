import Foundation
import Synchronization

extension OpenAPIDocument {
    /// The document `GET /openapi.json` answers. Built when the app starts without the lists'
    /// item data (so that a broken file fails the start, not a request, and an app that is never
    /// asked for its document makes no list for it), then once more on first use with it: the keys
    /// of a new session's items, which takes making one list of each kind (the outline's tree, the
    /// catalog's search), kept for the app's life.
    final class Served: Sendable {
        private let base: Data
        private let demos: [DemoDescriptor]
        private let withoutItems: Data
        private let built = Mutex<Data?>(nil)

        /// - Throws: when `base` is not an OpenAPI object.
        init(base: Data, demos: [DemoDescriptor]) throws {
            self.base = base
            self.demos = demos
            withoutItems = try OpenAPIDocument.build(base: base, demos: demos)
        }

        /// The document, with every list's item data.
        var data: Data {
            if let built = built.withLock({ $0 }) { return built }
            // List code runs outside the lock; two first requests at once both build the same bytes.
            var keys: [String: [String]] = [:]
            for demo in demos { keys[demo.name] = OpenAPIDocument.itemKeys(of: demo.make()) }
            let document = (try? OpenAPIDocument.build(base: base, demos: demos, itemKeys: keys)) ?? withoutItems
            return built.withLock { built in
                if built == nil { built = document }
                return built ?? document
            }
        }
    }

    /// The keys of the data of a new list's first `limit` items, sorted.
    /// - Complexity: O(the list's initial snapshot + `limit` items' data).
    static func itemKeys(of list: any Demo, limit: Int = 200) -> [String] {
        var keys = Set<String>()
        for item in list.initialSnapshot().itemIdentifiers.prefix(limit) {
            if let data = list.data(for: item) { keys.formUnion(data.keys) }
        }
        return keys.sorted()
    }
}
