import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

/// The seed's Combine stream of image URLs (../shared/SEEDS.md, 003): a publisher emits a batch
/// of URL strings every 1–3 s while someone watches, and each batch **replaces** the items of
/// section `main` (`deleteItems` of the old ones, then `appendItems` of the new ones), applied
/// with animation. The URL string is the item identifier, so a URL in two successive batches
/// moves rather than being re-created.
public final class URLStreamDemo: Demo {
    public static let section = "main"
    public static let batchSizes = 5...40
    /// URLs in one `publish`.
    public static let maximumBatch = 1_000

    /// - Parameters:
    ///   - urls: the built-in set batches are drawn from.
    ///   - interval: milliseconds between batches (each wait draws from the range).
    public static func descriptor(urls: [String], interval: ClosedRange<Int> = 1_000...3_000) -> DemoDescriptor {
        DemoDescriptor(
            name: "urls", title: "URL stream",
            summary: "A publisher sends batches of image URLs; each batch replaces the list, and URLs that stay move.",
            pageTemplate: "demos/urls",
            cellTemplates: ["cells/url"],
            actions: [
                ActionDescriptor(name: "pause", description: "Stop the publisher (it uses no CPU while paused)"),
                ActionDescriptor(name: "resume", description: "Start the publisher again (it runs while a stream is open)"),
                ActionDescriptor(name: "publish", description: "Send one batch now: it replaces the items of section main",
                                 parameters: [.init(name: "urls", type: "array", required: true,
                                                    description: "URL strings (http, https, or a path from /), unique, 1…\(maximumBatch)")]),
            ],
            example: ExampleRequest(action: "publish", body: #"{"urls":["/demos/photos/assets/p001.svg","/demos/photos/assets/p002.svg"]}"#),
            make: { URLStreamDemo(urls: urls, interval: interval) })
    }

    private struct State {
        var paused = false
        var streams = 0
        /// The running publisher; `nil` while paused or unwatched.
        var publisher: Task<Void, Never>?
        var batches = 0
    }

    let urls: [String]
    let interval: ClosedRange<Int>
    private let state = Mutex(State())
    private let list = Mutex<ListHandle?>(nil)

    init(urls: [String], interval: ClosedRange<Int>) {
        self.urls = urls
        self.interval = interval
    }

    /// The first batch, as if the publisher had just sent it: the first dozen URLs of the set (a
    /// page never opens on an empty list; later batches are random).
    public func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections([Self.section])  // a constant identifier: cannot fail
        try? snapshot.appendItems(Array(urls.prefix(12)))  // unique: the set has no duplicates
        return snapshot
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

    public func cell(for item: String) -> CellContent? {
        var values = ["url": item, "label": item.split(separator: "/").last.map(String.init) ?? item]
        // Only images of this server show; others show their address. An id set through the
        // snapshot API is not validated as a URL, so the check is made here, where it becomes HTML:
        // `//host/…` and `/\host/…` are other origins to a browser, not paths.
        if Self.isSameOriginPath(item) { values["src"] = item }
        return CellContent(template: "cells/url", values: values)
    }

    public func data(for item: String) -> [String: String]? { ["url": item] }

    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    public func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        switch action {
        case "pause":
            state.withLock { state in
                state.paused = true
                state.publisher?.cancel()
                state.publisher = nil
            }
            // The same items, with the status that says so.
            dataSource.apply(dataSource.snapshot(), animatingDifferences: false)
        case "resume":
            state.withLock { $0.paused = false }
            dataSource.apply(dataSource.snapshot(), animatingDifferences: false)
            startIfWatched()
        case "publish":
            let batch = try parameters.requiredStrings("urls")
            guard (1...Self.maximumBatch).contains(batch.count) else {
                throw .invalidParameter("urls", "must hold 1…\(Self.maximumBatch) URLs")
            }
            if let bad = batch.first(where: { !Self.isValidURL($0) }) {
                throw .unprocessable(code: "invalid_url", message: "“\(bad.prefix(200))” is not an http(s) URL or a path from /")
            }
            try replace(with: batch, on: dataSource)
        default:
            throw .unknownAction(action)
        }
    }

    /// The seed's sink: delete the items of `main`, append the new ones, apply animated. A
    /// duplicate in `batch` throws (naming it) before anything is applied.
    func replace(with batch: [String], on dataSource: ListTransaction) throws(ActionError) {
        var snapshot = dataSource.snapshot()
        if snapshot.indexOfSection(Self.section) == nil { try? snapshot.appendSections([Self.section]) }
        do {
            let old = try snapshot.itemIdentifiers(inSection: Self.section)
            try snapshot.deleteItems(old)
            try snapshot.appendItems(batch, toSection: Self.section)
        } catch {
            throw .snapshot(error)
        }
        state.withLock { $0.batches += 1 }
        dataSource.apply(snapshot, animatingDifferences: true)
    }

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

    public func status(of snapshot: Snapshot<String, String>) -> String {
        let paused = state.withLock { $0.paused }
        return "\(snapshot.numberOfItems) URLs\(paused ? " · paused" : "")"
    }

    /// How many batches were published, for scripts.
    public func details(of snapshot: Snapshot<String, String>) -> String {
        "batch \(state.withLock { $0.batches })"
    }

    public func pageValues() -> [String: String] { ["publisher": state.withLock { $0.paused } ? "paused" : "running"] }

    public func persistentState() -> [String: String] {
        state.withLock { ["paused": $0.paused ? "true" : "false", "batches": String($0.batches)] }
    }

    public func restore(state saved: [String: String]) {
        state.withLock { state in
            state.paused = saved["paused"] == "true"
            if let batches = saved["batches"].flatMap(Int.init), batches >= 0 { state.batches = batches }
        }
    }

    // MARK: The publisher

    public func attach(_ list: ListHandle) { self.list.withLock { $0 = list } }

    public func streamCountDidChange(_ count: Int) {
        let stop = state.withLock { state -> Task<Void, Never>? in
            state.streams = count
            guard count == 0 else { return nil }
            defer { state.publisher = nil }
            return state.publisher
        }
        stop?.cancel()
        if count > 0 { startIfWatched() }
    }

    /// Starts the publisher unless it runs, is paused, or nobody watches.
    private func startIfWatched() {
        guard let list = list.withLock({ $0 }) else { return }
        state.withLock { state in
            guard state.publisher == nil, !state.paused, state.streams > 0 else { return }
            state.publisher = Task { [weak self, urls, interval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(Int.random(in: interval)))
                    guard !Task.isCancelled, let self, list.isAlive else { return }
                    let batch = Array(urls.shuffled().prefix(Int.random(in: Self.batchSizes)))
                    await list.write { dataSource in
                        // A pause (or the last stream leaving) while this write waited wins.
                        guard !Task.isCancelled, self.state.withLock({ !$0.paused && $0.streams > 0 }) else { return }
                        try? self.replace(with: batch, on: dataSource)  // unique by construction: cannot fail
                    }
                }
            }
        }
    }

    /// The built-in URLs: the photo grid's generated images, served by this server.
    public static func builtInURLs(photos: PhotoLibrary) -> [String] {
        photos.photos.prefix(60).compactMap { $0.asset.map { "/demos/photos/assets/" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0) } }
    }
}
