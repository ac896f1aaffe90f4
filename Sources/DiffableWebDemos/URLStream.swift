import CompositionalLayout
import DiffableWeb
import Foundation

/// The seed's Combine stream of image URLs (../shared/SEEDS.md, 003): a publisher emits a batch
/// of URL strings every 1–3 s while someone watches, and each batch **replaces** the items of
/// section `main` (`deleteItems` of the old ones, then `appendItems` of the new ones), applied
/// with animation. The URL string is the item identifier, so a URL in two successive batches
/// moves rather than being re-created.
public struct URLStream: BuiltInList, BackgroundWork, PageState, ItemData {
    public static let name = "urls"
    public static let title = "URL stream"
    public static let summary = "A publisher sends batches of image URLs; each batch replaces the list, and URLs that stay move."
    public static let pageTemplate = "demos/urls"
    public static let cellTemplate = "cells/url"
    public static let section = "main"
    public static let batchSizes = 5...40
    /// URLs in one `publish`.
    public static let maximumBatch = 1_000

    /// What the publisher draws from, and how often (shared by every session).
    public struct Source: Sendable {
        let urls: [String]
        /// Milliseconds between batches (each wait draws from the range).
        let interval: ClosedRange<Int>

        public init(urls: [String], interval: ClosedRange<Int> = 1_000...3_000) {
            self.urls = urls
            self.interval = interval
        }
    }

    @Shared var source: Source
    var paused = false
    /// The batches published, for scripts.
    var batches = 0

    public enum Action: WebListAction {
        case pause
        case resume
        case publish(urls: [String])

        public static let descriptions = [
            "pause": "Stop the publisher (it uses no CPU while paused)",
            "resume": "Start the publisher again (it runs while a stream is open)",
            "publish": "Send one batch now: it replaces the items of section main",
            "publish.urls": "URL strings (http, https, or a path from /), unique, 1…\(maximumBatch)",
        ]
    }

    public struct Cell: Encodable {
        let url: String
        let label: String
        let src: String?
    }

    public struct Data: Encodable {
        let url: String
    }

    public struct PageValues: Encodable {
        let publisher: String
    }

    public init() {}

    /// A stream of `urls` (tests).
    public init(urls: [String], interval: ClosedRange<Int> = 1_000...3_000) {
        _source = Shared(wrappedValue: Source(urls: urls, interval: interval))
    }

    /// The descriptor of a stream of `urls`, a batch every `interval` milliseconds.
    public static func descriptor(urls: [String], interval: ClosedRange<Int> = 1_000...3_000) throws -> DemoDescriptor {
        try descriptor(sharing: [Source(urls: urls, interval: interval)])
    }

    /// The first batch, as if the publisher had just sent it: the first dozen URLs of the set (a
    /// page never opens on an empty list; later batches are random).
    public func initialSnapshot() throws -> Snapshot<String, String> {
        try Snapshot([Self.section: Array(source.urls.prefix(12))])
    }

    /// The seed's grid: three square columns.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, _ in
            var item = LayoutItem(layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1)))
            item.contentInsets = .uniform(2)
            let group = LayoutGroup.horizontal(
                layoutSize: LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalWidth(1.0 / 3)), subitem: item, count: 3)
            return LayoutSection(group: group)
        }
    }

    /// Only images of this server show; others show their address. An id set through the
    /// snapshot API is not validated as a URL, so the check is made here, where it becomes HTML:
    /// `//host/…` and `/\host/…` are other origins to a browser, not paths.
    public func cell(for item: String) -> Cell? {
        Cell(url: item, label: item.split(separator: "/").last.map(String.init) ?? item, src: Self.isSameOriginPath(item) ? item : nil)
    }

    public func data(for item: String) -> Data? { Data(url: item) }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .pause: paused = true  // the same items, with the status that says so
        case .resume: paused = false
        case .publish(let batch):
            guard (1...Self.maximumBatch).contains(batch.count) else {
                throw ActionError.invalidParameter("urls", "must hold 1…\(Self.maximumBatch) URLs")
            }
            if let bad = batch.first(where: { !Self.isValidURL($0) }) {
                throw ActionError.unprocessable(code: "invalid_url", message: "“\(bad.prefix(200))” is not an http(s) URL or a path from /")
            }
            try replace(&list, with: batch)
        }
    }

    /// The seed's sink: delete the items of `main`, append the new ones. A duplicate in `batch`
    /// throws (naming it), and nothing changes.
    mutating func replace(_ list: inout Snapshot<String, String>, with batch: [String]) throws {
        if list.indexOfSection(Self.section) == nil { try list.appendSections([Self.section]) }
        try list.deleteItems(try list.itemIdentifiers(inSection: Self.section))
        try list.appendItems(batch, toSection: Self.section)
        batches += 1
    }

    /// The publisher runs while someone watches and it is not paused.
    public func jobs(_ activity: ListActivity<String>) -> [ListJob<Self>] {
        guard activity.watchers > 0, !paused else { return [] }
        let source = source
        return [ListJob("publisher") { list in
            while await list.sleep(for: .milliseconds(Int.random(in: source.interval))) {
                let batch = Array(source.urls.shuffled().prefix(Int.random(in: Self.batchSizes)))
                await list.update { state, items in try state.replace(&items, with: batch) }
            }
        }]
    }

    public func status(of list: Snapshot<String, String>) -> String {
        "\(list.numberOfItems) URLs\(paused ? " · paused" : "")"
    }

    public func details(of list: Snapshot<String, String>) -> String { "batch \(batches)" }

    public var pageValues: PageValues { PageValues(publisher: paused ? "paused" : "running") }

    /// An absolute `http`/`https` URL with a host, or a path from the server's root; at most 200
    /// characters, no spaces or control characters.
    static func isValidURL(_ text: String) -> Bool {
        guard (1...200).contains(text.utf8.count), !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else { return false }
        if text.hasPrefix("/") { return !text.hasPrefix("//") && URLComponents(string: text) != nil }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return false }
        return true
    }

    /// A path from this server's root that a browser resolves on this origin.
    static func isSameOriginPath(_ text: String) -> Bool {
        text.hasPrefix("/") && !text.hasPrefix("//") && !text.contains("\\") && isValidURL(text)
    }

    /// The built-in URLs: the photo grid's generated images, served by this server.
    public static func builtInURLs(photos: PhotoLibrary) -> [String] {
        photos.photos.prefix(60).compactMap { $0.asset.map { "/demos/photos/assets/" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0) } }
    }
}
