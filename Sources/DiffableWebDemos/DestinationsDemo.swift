import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

/// "Make blazing fast lists" (../shared/SEEDS.md, 002): posts keyed by a **stable id**, so a
/// like is a `reconfigureItems` (the cell's content changes in place) rather than a delete and
/// an insert; a failed asset is retried with `reloadItems` (a new cell). Two cell kinds chosen by
/// an enum (a post and a promo), each with its own template. Assets load off the writer path
/// when their cells are about to show (prefetching: the stream's window, one screen above and
/// below the viewport) and are cancelled when their cells scroll far away.
public final class DestinationsDemo: Demo {
    public static let section = "main"

    /// One row: the enum that picks the cell kind (UIKit: two registrations, one provider).
    enum Row: Equatable {
        case post(Int)
        case promo(Int)

        init?(_ id: String) {
            if id.hasPrefix("post-"), let n = Int(id.dropFirst(5)), n >= 1 { self = .post(n) }
            else if id.hasPrefix("promo-"), let n = Int(id.dropFirst(6)), n >= 1 { self = .promo(n) }
            else { return nil }
        }
    }

    /// A post as the seed's `DestinationPost`: identified by `id`; title, place, likes, asset.
    struct Post: Sendable {
        let id: String
        let title: String
        let place: String
        let asset: String
        var likes: Int
        var liked = false
    }

    /// Where a post's asset is: not asked for, loading (cancellable), shown, or failed.
    enum AssetState {
        case waiting
        case loading(Task<Void, Never>)
        case loaded
        case failed
    }

    /// The counters the page status and the API show.
    struct Counters: Sendable, Equatable {
        var started = 0, cancelled = 0, completed = 0, failed = 0
    }

    /// - Parameters:
    ///   - places: what the posts are about (the mountain catalog).
    ///   - assetLatency: the simulated load time of a post's picture, in milliseconds.
    public static func descriptor(places: [(name: String, height: Int)], postCount: Int = 200,
                                  assetLatency: ClosedRange<Int> = 100...800) -> DemoDescriptor {
        let posts = makePosts(places: places, count: postCount)
        let pictures = PhotoLibrary.generated(captions: posts.map(\.title), count: posts.count)
        return DemoDescriptor(
            name: "destinations", title: "Destinations",
            summary: "Posts keyed by a stable id: a like updates the cell in place; assets load ahead of the scroll and cancel when you scroll away.",
            cellTemplates: ["cells/post", "cells/promo"],
            actions: [
                ActionDescriptor(name: "like", description: "Like a post: reconfigureItems (its cell updates in place)",
                                 parameters: [.init(name: "post", type: "string", required: true, description: "The post's id (post-…)")]),
                ActionDescriptor(name: "unlike", description: "Take a like back: reconfigureItems",
                                 parameters: [.init(name: "post", type: "string", required: true, description: "The post's id (post-…)")]),
                ActionDescriptor(name: "retry", description: "Load a failed asset again: reloadItems (a new cell)",
                                 parameters: [.init(name: "post", type: "string", required: true, description: "The post's id (post-…)")]),
            ],
            example: ExampleRequest(action: "like", body: #"{"post":"post-0001"}"#),
            assets: .generated { name in pictures.svg(for: name).map { DemoAsset(contentType: "image/svg+xml", bytes: $0) } },
            make: { DestinationsDemo(posts: posts, assetLatency: assetLatency) })
    }

    /// Posts about the catalog's mountains, deterministic: the same ids, titles and likes in every
    /// session and run.
    static func makePosts(places: [(name: String, height: Int)], count: Int) -> [Post] {
        let moments = ["Sunrise over", "First light on", "Clouds around", "The long ridge of", "Camp below", "Snowfall on", "Evening on"]
        return (0..<max(0, count)).map { n in
            let place = places.isEmpty ? (name: "Summit \(n + 1)", height: 1000) : places[n % places.count]
            return Post(id: String(format: "post-%04d", n + 1), title: "\(moments[n % moments.count]) \(place.name)",
                        place: "\(place.name) · \(place.height.grouped) m", asset: String(format: "p%03d.svg", n + 1),
                        likes: (n * 37 + 11) % 500)
        }
    }

    /// A promo after every `promoEvery` posts.
    static let promoEvery = 8

    private struct State {
        var posts: [String: Post]
        var assets: [String: AssetState] = [:]
        /// Each post's first load fails when its number is a multiple of 7 (a flaky network);
        /// a retry succeeds.
        var retried: Set<String> = []
        var counters = Counters()
        /// What each stream's window shows (by stream id).
        var windows: [String: Set<String>] = [:]
        var pendingReconfigure: [String] = []
        var pendingReload: [String] = []
        var flushScheduled = false
    }

    let order: [String]
    let assetLatency: ClosedRange<Int>
    private let state: Mutex<State>
    private let list = Mutex<ListHandle?>(nil)

    init(posts: [Post], assetLatency: ClosedRange<Int>) {
        var order: [String] = []
        for (n, post) in posts.enumerated() {
            order.append(post.id)
            if (n + 1) % Self.promoEvery == 0 { order.append("promo-\((n + 1) / Self.promoEvery)") }
        }
        self.order = order
        self.assetLatency = assetLatency
        state = Mutex(State(posts: Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0) })))
    }

    public func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        try? snapshot.appendSections([Self.section])
        try? snapshot.appendItems(order)  // unique by construction
        return snapshot
    }

    /// Self-sizing cards (a post and a promo alike), 12 px apart, adapting to their container
    /// (`layoutEnvironment.container.effectiveContentSize`): the picture beside the text on a
    /// wide container, above it (a taller card) below `stackedBelow`. The cell's CSS makes the
    /// same choice from the card's width (`@container`), so a card and its content agree; a
    /// browser measures each card, so a long title makes its card taller and a short one shorter.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            // Self-sizing: a card is as tall as its title and place need (a browser measures it).
            let height = Self.cardHeight(forWidth: environment.container.width)
            let size = LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(height))
            let group = LayoutGroup.horizontal(layoutSize: size, subitems: [LayoutItem(layoutSize: size)])
            var section = LayoutSection(group: group)
            section.interGroupSpacing = 12
            section.contentInsets = DirectionalEdgeInsets(top: 12, leading: 16, bottom: 12, trailing: 16)
            return section
        }
    }

    /// Below this container width (a card narrower than 568 px: the 16-px insets on each side)
    /// the picture goes above the text. Keep in step with `app.css`'s `@container post`.
    static let stackedBelow = 600.0

    /// A card's estimated height: beside its picture, the picture's 112 px; stacked, the 150-px
    /// picture above a title and a place of one line each.
    static func cardHeight(forWidth width: Double) -> Double {
        width < stackedBelow ? 226 : 112
    }

    public func cell(for item: String) -> CellContent? {
        switch Row(item) {
        case .promo(let n):
            return CellContent(template: "cells/promo", values: ["title": "Plan your next climb", "text": "Promo \(n): guides, permits and weather, in one place."])
        case .post:
            return state.withLock { state -> CellContent? in
                guard let post = state.posts[item] else { return nil }
                var values = ["id": post.id, "title": post.title, "place": post.place, "likes": post.likes.grouped,
                              "likeAction": post.liked ? "unlike" : "like", "liked": post.liked ? "true" : "false",
                              "likeLabel": post.liked ? "Unlike \(post.title)" : "Like \(post.title)"]
                switch state.assets[item] ?? .waiting {
                case .loaded: values["src"] = "/demos/destinations/assets/" + post.asset
                case .failed: values["failed"] = "true"
                case .waiting, .loading: break
                }
                return CellContent(template: "cells/post", values: values)
            }
        case nil:
            return nil
        }
    }

    public func data(for item: String) -> [String: String]? {
        guard case .post = Row(item) else { return Row(item) == nil ? nil : ["kind": "promo"] }
        return state.withLock { state in
            guard let post = state.posts[item] else { return nil }
            // Only states an apply follows (the snapshot body is cached per version).
            let asset: String = switch state.assets[item] ?? .waiting {
            case .waiting, .loading: "pending"
            case .loaded: "loaded"
            case .failed: "failed"
            }
            return ["kind": "post", "title": post.title, "place": post.place, "likes": String(post.likes),
                    "liked": String(post.liked), "asset": asset]
        }
    }

    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    public func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        switch action {
        case "like", "unlike":
            let id = try post(parameters, in: dataSource)
            let changed = state.withLock { state -> Bool in
                guard var post = state.posts[id], post.liked != (action == "like") else { return false }
                post.liked.toggle()
                post.likes += post.liked ? 1 : -1
                state.posts[id] = post
                return true
            }
            guard changed else { return }
            // The identifier is stable, so the change is a reconfigure: same cell, new content.
            try apply(on: dataSource) { snapshot throws(SnapshotError) in try snapshot.reconfigureItems([id]) }
        case "retry":
            let id = try post(parameters, in: dataSource)
            let retry = state.withLock { state -> Bool in
                guard case .failed = state.assets[id] ?? .waiting else { return false }
                state.retried.insert(id)
                state.assets[id] = .waiting
                return true
            }
            guard retry else { throw .unprocessable(code: "asset_not_failed", message: "\(id)'s asset has not failed") }
            // A new cell (placeholder again), then the load.
            try apply(on: dataSource) { snapshot throws(SnapshotError) in try snapshot.reloadItems([id]) }
            startLoads([id])
        default:
            throw .unknownAction(action)
        }
    }

    private func post(_ parameters: ActionParameters, in dataSource: ListTransaction) throws(ActionError) -> String {
        let id = try parameters.requiredString("post")
        guard case .post = Row(id), state.withLock({ $0.posts[id] != nil }), dataSource.snapshot().contains(item: id) else {
            throw .snapshot(.unknownItems([id]))
        }
        return id
    }

    private func apply(on dataSource: ListTransaction, _ change: (inout Snapshot<String, String>) throws(SnapshotError) -> Void) throws(ActionError) {
        var snapshot = dataSource.snapshot()
        do { try change(&snapshot) } catch { throw .snapshot(error) }
        dataSource.apply(snapshot, animatingDifferences: true)
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        let posts = snapshot.itemIdentifiers.lazy.filter { $0.hasPrefix("post-") }.count
        return posts == 1 ? "1 post" : "\(posts.grouped) posts"
    }

    /// The asset loads, for scripts (the page's script panel, the API).
    public func details(of snapshot: Snapshot<String, String>) -> String {
        let counters = state.withLock { $0.counters }
        let loading = counters.started - counters.completed - counters.cancelled - counters.failed
        return "assets: \(counters.completed) loaded, \(loading) loading, \(counters.cancelled) cancelled, \(counters.failed) failed"
    }

    public func pageValues() -> [String: String] { [:] }

    /// The posts this session liked, with their counts (`liked:post-0002` = `12`).
    public func persistentState() -> [String: String] {
        state.withLock { state in
            var saved: [String: String] = [:]
            for post in state.posts.values where post.liked { saved["liked:" + post.id] = String(post.likes) }
            return saved
        }
    }

    public func restore(state saved: [String: String]) {
        state.withLock { state in
            for (key, value) in saved where key.hasPrefix("liked:") {
                let id = String(key.dropFirst(6))
                guard var post = state.posts[id], let likes = Int(value), likes >= 0 else { continue }
                post.liked = true
                post.likes = likes
                state.posts[id] = post
            }
        }
    }

    /// The prefetch counters (tests and the API's `GET …/snapshot` status).
    var counters: Counters { state.withLock { $0.counters } }

    // MARK: Prefetching

    public func attach(_ list: ListHandle) { self.list.withLock { $0 = list } }

    public var observesWindows: Bool { true }

    /// Loads start for posts in a window (the viewport and one screen above and below, so ahead
    /// of the scroll) and are cancelled for posts that left every window (a closed tab's too).
    public func windowDidChange(_ window: WindowItems) {
        let cancelled = state.withLock { state -> [Task<Void, Never>] in
            // Each tab has its window; a load is wanted while any of them shows its post.
            if window.items.isEmpty { state.windows[window.stream] = nil } else { state.windows[window.stream] = Set(window.items) }
            var tasks: [Task<Void, Never>] = []
            for (id, asset) in state.assets {
                guard case .loading(let task) = asset, !state.windows.values.contains(where: { $0.contains(id) }) else { continue }
                tasks.append(task)
                state.assets[id] = .waiting
                state.counters.cancelled += 1
            }
            return tasks
        }
        for task in cancelled { task.cancel() }
        startLoads(window.items)
    }

    private func startLoads(_ items: [String]) {
        guard let list = list.withLock({ $0 }) else { return }
        state.withLock { state in
            for id in items {
                guard case .post(let n) = Row(id), state.posts[id] != nil, case .waiting = state.assets[id] ?? .waiting else { continue }
                let fails = n % 7 == 0 && !state.retried.contains(id)
                let delay = Int.random(in: assetLatency)
                state.counters.started += 1
                state.assets[id] = .loading(Task { [weak self] in
                    if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
                    guard !Task.isCancelled else { return }
                    self?.assetDidLoad(id, failed: fails, list: list)
                })
            }
        }
    }

    /// A load finished: the cell is reconfigured (loaded) or reloaded (failed: a new cell with a
    /// Retry button), only if the post is still in the snapshot. Loads that finish together are
    /// applied together.
    private func assetDidLoad(_ id: String, failed: Bool, list: ListHandle) {
        let flush = state.withLock { state -> Bool in
            guard case .loading = state.assets[id] ?? .waiting else { return false }  // cancelled meanwhile
            state.assets[id] = failed ? .failed : .loaded
            if failed { state.counters.failed += 1; state.pendingReload.append(id) } else { state.counters.completed += 1; state.pendingReconfigure.append(id) }
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        guard flush else { return }
        Task {
            await list.write { dataSource in
                let (reconfigure, reload) = self.state.withLock { state -> ([String], [String]) in
                    state.flushScheduled = false
                    defer { state.pendingReconfigure.removeAll(); state.pendingReload.removeAll() }
                    return (state.pendingReconfigure, state.pendingReload)
                }
                var snapshot = dataSource.snapshot()
                let present = { (ids: [String]) in ids.filter { snapshot.contains(item: $0) } }
                let (r1, r2) = (present(reconfigure), present(reload))
                guard !r1.isEmpty || !r2.isEmpty else { return }
                try? snapshot.reconfigureItems(r1)  // present: cannot fail
                try? snapshot.reloadItems(r2)
                dataSource.apply(snapshot, animatingDifferences: true)
            }
        }
    }
}
