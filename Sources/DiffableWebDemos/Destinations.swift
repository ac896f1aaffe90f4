import CompositionalLayout
import DiffableWeb
import Foundation

/// "Make blazing fast lists" (../shared/SEEDS.md, 002): posts keyed by a **stable id**, so a
/// like is a `reconfigureItems` (the cell's content changes in place) rather than a delete and
/// an insert; a failed asset is retried with `reloadItems` (a new cell). Two cell kinds chosen by
/// an enum (a post and a promo), each with its own template. Assets load as jobs while their
/// cells are about to show (prefetching: the stream's window, one screen above and below the
/// viewport) and are cancelled when their cells scroll far away.
///
/// A post is selectable (single selection), and its primary action opens it: a click, a tap or
/// Return on a card selects it and shows it in the pane above the list, with its likes kept in
/// step. A card holds its own Like button, so the page is the WAI-ARIA grid pattern
/// (`rowsHoldControls`): ↑ ↓ move between cards, → reaches a card's buttons.
public struct Destinations: BuiltInList, BackgroundWork, ItemData, ListAssets, SelectableList, PageState, UpgradesUntypedState {
    public static let title = "Destinations"
    public static let summary = "Posts keyed by a stable id: a like updates the cell in place; assets load ahead of the scroll and cancel when you scroll away."
    public static let cellTemplate = "cells/post"
    public static let pageTemplate = "demos/destinations"
    public static let cellTemplates = ["cells/post", "cells/promo"]
    public static let section = "main"
    /// A promo after every `promoEvery` posts.
    static let promoEvery = 8

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
        let likes: Int
    }

    /// The posts every session shows, in order with their promos, and their pictures.
    public struct Content: Sendable {
        let posts: [String: Post]
        let order: [String]
        let assetLatency: ClosedRange<Int>
        let pictures: PhotoLibrary

        /// Posts about `places` (the mountain catalog), deterministic: the same ids, titles and
        /// likes in every session and run; each picture loads in `assetLatency` milliseconds.
        public init(places: [(name: String, height: Int)], postCount: Int = 200, assetLatency: ClosedRange<Int> = 100...800) {
            let moments = ["Sunrise over", "First light on", "Clouds around", "The long ridge of", "Camp below", "Snowfall on", "Evening on"]
            let posts = (0..<max(0, postCount)).map { n in
                let place = places.isEmpty ? (name: "Summit \(n + 1)", height: 1000) : places[n % places.count]
                return Post(id: String(format: "post-%04d", n + 1), title: "\(moments[n % moments.count]) \(place.name)",
                            place: "\(place.name) · \(place.height.grouped) m", asset: String(format: "p%03d.svg", n + 1),
                            likes: (n * 37 + 11) % 500)
            }
            var order: [String] = []
            for (n, post) in posts.enumerated() {
                order.append(post.id)
                if (n + 1) % Destinations.promoEvery == 0 { order.append("promo-\((n + 1) / Destinations.promoEvery)") }
            }
            self.posts = Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0) })
            self.order = order
            self.assetLatency = assetLatency
            pictures = PhotoLibrary.generated(captions: posts.map(\.title), count: posts.count)
        }
    }

    /// Where a post's asset is (not asked for: absent).
    enum Asset: Sendable, Equatable {
        case loading, loaded, failed
    }

    /// The counters the page status and the API show.
    struct Counters: Sendable, Equatable, TransientValue {
        var started = 0, cancelled = 0, completed = 0, failed = 0
    }

    @Shared var content: Content
    /// The posts this session liked, with their counts.
    var liked: [String: Int] = [:]
    /// The post a person opened (the primary action): the pane shows it.
    var opened: String?
    @Transient var loads: [String: Asset] = [:]
    /// Each post's first load fails when its number is a multiple of 7 (a flaky network); a
    /// retry succeeds.
    @Transient var retried: Set<String> = []
    @Transient var counters = Counters()

    public enum Action: WebListAction {
        case like(post: String)
        case unlike(post: String)
        case retry(post: String)
        case close

        public static let descriptions = [
            "close": "Close the opened post's pane (a click or Return on a post opens it: its primary action)",
            "like": "Like a post: reconfigureItems (its cell updates in place)", "like.post": "The post's id (post-…)",
            "unlike": "Take a like back: reconfigureItems", "unlike.post": "The post's id (post-…)",
            "retry": "Load a failed asset again: reloadItems (a new cell)", "retry.post": "The post's id (post-…)",
        ]
    }

    /// A post or a promo.
    public struct Cell: TemplatedCell {
        public let template: String
        var id: String? = nil
        var title: String
        var place: String? = nil
        var text: String? = nil
        var likes: String? = nil
        var likeAction: String? = nil
        var liked: Bool? = nil
        var likeLabel: String? = nil
        var src: String? = nil
        var failed: Bool? = nil
    }

    public struct Data: Encodable {
        let kind: String
        var title: String? = nil
        var place: String? = nil
        var likes: Int? = nil
        var liked: Bool? = nil
        var asset: String? = nil
    }

    /// The pane above the list: the opened post.
    public struct PageValues: Encodable {
        let opened: Bool
        let openedTitle: String
        let openedPlace: String
        let openedLikes: String
    }

    public init() {}

    /// The posts a session liked, saved by the untyped demo as `liked:<post>` = its count.
    public init?(untypedState saved: [String: String]) {
        for (key, value) in saved where key.hasPrefix("liked:") {
            let id = String(key.dropFirst(6))
            guard content.posts[id] != nil, let likes = Int(value), likes >= 0 else { continue }
            liked[id] = likes
        }
    }

    /// The descriptor of `postCount` posts about `places`.
    public static func descriptor(places: [(name: String, height: Int)], postCount: Int = 200,
                                  assetLatency: ClosedRange<Int> = 100...800) throws -> DemoDescriptor {
        try descriptor(sharing: [Content(places: places, postCount: postCount, assetLatency: assetLatency)])
    }

    public func initialSnapshot() throws -> Snapshot<String, String> { try Snapshot([Self.section: content.order]) }

    /// Self-sizing cards (a post and a promo alike), 12 px apart, adapting to their container
    /// (`layoutEnvironment.container.effectiveContentSize`): the picture beside the text on a
    /// wide container, above it (a taller card) below `stackedBelow`. The cell's CSS makes the
    /// same choice from the card's width (`@container`), so a card and its content agree; a
    /// browser measures each card, so a long title makes its card taller and a short one shorter.
    public func layout() -> CompositionalLayout {
        CompositionalLayout { _, environment in
            let size = LayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(Self.cardHeight(forWidth: environment.container.width)))
            var section = LayoutSection(group: LayoutGroup.horizontal(layoutSize: size, subitems: [LayoutItem(layoutSize: size)]))
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
    static func cardHeight(forWidth width: Double) -> Double { width < stackedBelow ? 226 : 112 }

    func likes(of post: Post) -> (count: Int, liked: Bool) {
        liked[post.id].map { ($0, true) } ?? (post.likes, false)
    }

    public func cell(for item: String) -> Cell? {
        switch Row(item) {
        case .promo(let n):
            return Cell(template: "cells/promo", title: "Plan your next climb", text: "Promo \(n): guides, permits and weather, in one place.")
        case .post:
            guard let post = content.posts[item] else { return nil }
            let (count, liked) = likes(of: post)
            return Cell(template: "cells/post", id: post.id, title: post.title, place: post.place, likes: count.grouped,
                        likeAction: liked ? "unlike" : "like", liked: liked, likeLabel: liked ? "Unlike \(post.title)" : "Like \(post.title)",
                        src: loads[item] == .loaded ? "/demos/destinations/assets/" + post.asset : nil,
                        failed: loads[item] == .failed ? true : nil)
        case nil:
            return nil
        }
    }

    public func data(for item: String) -> Data? {
        guard case .post = Row(item) else { return Row(item) == nil ? nil : Data(kind: "promo") }
        guard let post = content.posts[item] else { return nil }
        let (count, liked) = likes(of: post)
        let asset = switch loads[item] {
        case nil, .loading: "pending"
        case .loaded: "loaded"
        case .failed: "failed"
        }
        return Data(kind: "post", title: post.title, place: post.place, likes: count, liked: liked, asset: asset)
    }

    public var assets: DemoAssets {
        let pictures = content.pictures
        return .generated { name in pictures.svg(for: name).map { DemoAsset(contentType: "image/svg+xml", bytes: $0) } }
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .like(let id), .unlike(let id):
            guard case .post = Row(id), let post = content.posts[id], list.contains(item: id) else { throw SnapshotError.unknownItems([id]) }
            let like: Bool = if case .like = action { true } else { false }
            let (count, liked) = likes(of: post)
            guard liked != like else { return }
            self.liked[id] = like ? count + 1 : nil
            // The identifier is stable, so the change is a reconfigure: same cell, new content.
            try list.reconfigureItems([id])
        case .close:
            opened = nil
        case .retry(let id):
            guard case .post = Row(id), content.posts[id] != nil, list.contains(item: id) else { throw SnapshotError.unknownItems([id]) }
            guard loads[id] == .failed else { throw ActionError.unprocessable(code: "asset_not_failed", message: "\(id)'s asset has not failed") }
            retried.insert(id)
            loads[id] = nil
            // A new cell (placeholder again), then the load (a window shows it).
            try list.reloadItems([id])
        }
    }

    /// A load for each post in a window whose asset is not loaded or failed; one that leaves
    /// every window is cancelled. A load that ends reconfigures its cell (loaded) or reloads it
    /// (failed: a new cell with a Retry button), only if the post is still in the list.
    public func jobs(_ activity: ListActivity<String>) -> [ListJob<Self>] {
        let latency = content.assetLatency
        return activity.visibleItems.sorted().compactMap { id -> ListJob<Self>? in
            guard case .post(let n) = Row(id), content.posts[id] != nil, loads[id] == nil || loads[id] == .loading else { return nil }
            let fails = n % 7 == 0 && !retried.contains(id)
            return ListJob("asset \(id)", onStart: { state in
                state.loads[id] = .loading
                state.counters.started += 1
            }, onCancel: { state in
                guard state.loads[id] == .loading else { return }
                state.loads[id] = nil
                state.counters.cancelled += 1
            }) { list in
                if let delay = latency.randomElement(), delay > 0, !(await list.sleep(for: .milliseconds(delay))) { return }
                await list.update { state, items in
                    guard state.loads[id] == .loading else { return }  // cancelled meanwhile
                    state.loads[id] = fails ? .failed : .loaded
                    if fails { state.counters.failed += 1 } else { state.counters.completed += 1 }
                    guard items.contains(item: id) else { return }
                    if fails { try items.reloadItems([id]) } else { try items.reconfigureItems([id]) }
                }
            }
        }
    }

    // MARK: Selection and the opened post

    public static var rowsHoldControls: Bool { true }

    /// A promo is not selectable; a post is.
    public func shouldSelect(_ item: String) -> Bool {
        if case .post = Row(item) { return content.posts[item] != nil }
        return false
    }

    /// Opens the post (the pane shows it); a promo has nothing to open.
    public mutating func performPrimaryAction(for item: String) {
        guard case .post = Row(item), content.posts[item] != nil else { return }
        opened = item
    }

    public var pageValues: PageValues {
        guard let opened, let post = content.posts[opened] else {
            return PageValues(opened: false, openedTitle: "", openedPlace: "", openedLikes: "")
        }
        let (count, liked) = likes(of: post)
        return PageValues(opened: true, openedTitle: post.title, openedPlace: post.place,
                          openedLikes: "\(count.grouped) \(count == 1 ? "like" : "likes")\(liked ? ", yours among them" : "")")
    }

    public func status(of list: Snapshot<String, String>) -> String {
        let posts = list.itemIdentifiers.lazy.filter { $0.hasPrefix("post-") }.count
        return posts == 1 ? "1 post" : "\(posts.grouped) posts"
    }

    /// The asset loads, for scripts (the page's script panel, the API).
    public func details(of list: Snapshot<String, String>) -> String {
        let loading = counters.started - counters.completed - counters.cancelled - counters.failed
        return "assets: \(counters.completed) loaded, \(loading) loading, \(counters.cancelled) cancelled, \(counters.failed) failed"
    }
}
