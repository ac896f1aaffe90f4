import CompositionalLayout
import DiffableWeb
import Foundation

/// The seed's photo grid (../shared/SEEDS.md, 001): its compositional layouts, switched live;
/// pagination (`loadData()` appends the next page of 30 when a window nears the end); and
/// async images (`loadImages`: a cell shows a placeholder, the image "loads" as a job, then
/// `reloadItems([photo])` runs only if the photo is still in the snapshot).
public struct Photos: BuiltInList, BackgroundWork, PageState, ItemData, ListAssets {
    public static let title = "Photos"
    public static let summary = "The seed’s compositional layouts, switched live; pages load as you scroll; images arrive after their placeholders."
    public static let pageTemplate = "demos/photos"
    public static let cellTemplate = "cells/photo"
    public static let section = "main"
    public static let pageSize = 30
    /// A page loads when a window reaches this close to the end of the list.
    static let prefetchDistance = 10

    /// The photos, and how their images load (shared by every session).
    public struct Source: Sendable {
        let library: PhotoLibrary
        /// The simulated load time of an image, in milliseconds (each load draws from the
        /// range); `0...0` loads at once (tests).
        let imageLatency: ClosedRange<Int>
        /// When set, each load waits for it instead of `imageLatency` (tests: loads that
        /// finish when the test says, not after a time).
        let imageGate: (@Sendable (_ item: String) async -> Void)?

        public init(library: PhotoLibrary, imageLatency: ClosedRange<Int> = 50...400, imageGate: (@Sendable (_ item: String) async -> Void)? = nil) {
            self.library = library
            self.imageLatency = imageLatency
            self.imageGate = imageGate
        }
    }

    @Shared var source: Source
    var photoLayout = PhotoLayout.leftThreeRightThree
    /// The next page `loadData()` appends (0-based): the first is the initial snapshot's.
    var nextPage = 1
    /// Photos whose image has arrived, and those loading: loaded again after a restart.
    @Transient var loaded: Set<String> = []
    @Transient var loading: Set<String> = []
    /// For the page status and the API.
    @Transient var loadsStarted = 0
    @Transient var loadsCompleted = 0

    /// Saved as the untyped demo saved it (`layout`, `nextPage`).
    enum CodingKeys: String, CodingKey {
        case source, photoLayout = "layout", nextPage, loaded, loading, loadsStarted, loadsCompleted
    }

    public enum Action: WebListAction {
        case setLayout(layout: PhotoLayout)
        case loadMore
        case clear

        public static let descriptions = [
            "setLayout": "Switch the layout; every cell animates to its new frame", "setLayout.layout": "The layout",
            "loadMore": "loadData(): append the next page of 30 photos",
            "clear": "Apply an empty snapshot; the next loadData() starts again from page 1",
        ]
    }

    public struct Cell: Encodable {
        let caption: String
        let width: Int
        let height: Int
        let src: String?
    }

    public struct Data: Encodable {
        let caption: String
        let width: Int
        let height: Int
        let loaded: Bool
    }

    public struct PageValues: Encodable {
        let layout: PhotoLayout
    }

    public init() {}

    /// The descriptor of a photo grid of `library`.
    public static func descriptor(library: PhotoLibrary, imageLatency: ClosedRange<Int> = 50...400,
                                  imageGate: (@Sendable (_ item: String) async -> Void)? = nil) throws -> DemoDescriptor {
        try descriptor(sharing: [Source(library: library, imageLatency: imageLatency, imageGate: imageGate)])
    }

    var library: PhotoLibrary { source.library }

    public func initialSnapshot() throws -> Snapshot<String, String> {
        var list = Snapshot<String, String>()
        var first = self
        first.nextPage = 0
        try first.appendNextPage(to: &list)
        return list
    }

    public func layout() -> CompositionalLayout { photoLayout.layout }

    public func cell(for item: String) -> Cell? {
        guard let photo = library.photo(id: item) else { return nil }
        let src = loaded.contains(item) ? photo.asset.map { "/demos/photos/assets/" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0) } : nil
        return Cell(caption: photo.caption, width: photo.width, height: photo.height, src: src)
    }

    public func data(for item: String) -> Data? {
        library.photo(id: item).map { Data(caption: $0.caption, width: $0.width, height: $0.height, loaded: loaded.contains(item)) }
    }

    public var assets: DemoAssets {
        let library = library
        return library.directory.map { .directory($0, names: Set(library.photos.compactMap(\.asset))) } ?? .generated { name in
            library.svg(for: name).map { DemoAsset(contentType: "image/svg+xml", bytes: $0) }
        }
    }

    public mutating func perform(_ action: Action, on list: inout Snapshot<String, String>) throws {
        switch action {
        case .setLayout(let layout):
            // The same items under a new layout: nothing is inserted or deleted, and every cell
            // in a window moves to its new frame.
            photoLayout = layout
        case .loadMore:
            try appendNextPage(to: &list)
        case .clear:
            nextPage = 0
            loaded.removeAll()
            list = Snapshot()
        }
    }

    /// The seed's `loadData()`: appends the next page, adding the section when the snapshot has
    /// none. Does nothing once every photo is shown, or when the page is shown already (a
    /// script put its photos in the list).
    mutating func appendNextPage(to list: inout Snapshot<String, String>) throws {
        let start = nextPage * Self.pageSize
        guard start < library.photos.count else { return }
        let page = library.photos[start..<min(start + Self.pageSize, library.photos.count)].map(\.id)
        guard !page.contains(where: list.contains(item:)) else { return }
        nextPage += 1
        if !list.contains(section: Self.section) { try list.appendSections([Self.section]) }
        try list.appendItems(page, toSection: Self.section)
    }

    /// The next page while a window nears the end; each image in a window (or already loading:
    /// a load that started finishes) until it has loaded.
    public func jobs(_ activity: ListActivity<String>) -> [ListJob<Self>] {
        var jobs: [ListJob<Self>] = []
        if let last = activity.lastVisiblePosition, last >= activity.itemCount - Self.prefetchDistance,
           nextPage * Self.pageSize < library.photos.count {
            jobs.append(ListJob("page \(nextPage)") { list in
                await list.update { state, items in try state.appendNextPage(to: &items) }
            })
        }
        let source = source
        for item in activity.visibleItems.union(loading).sorted() where !loaded.contains(item) && library.photo(id: item)?.asset != nil {
            jobs.append(ListJob("image \(item)", onStart: { state in
                state.loading.insert(item)
                state.loadsStarted += 1
            }) { list in
                if let gate = source.imageGate {
                    await gate(item)
                } else if let delay = source.imageLatency.randomElement(), delay > 0, !(await list.sleep(for: .milliseconds(delay))) {
                    return
                }
                // The seed's `loadImages`: the image is set, then the photo is reloaded only if
                // the snapshot still has it.
                await list.update(animatingDifferences: false) { state, items in
                    state.loading.remove(item)
                    state.loaded.insert(item)
                    state.loadsCompleted += 1
                    if items.contains(item: item) { try items.reloadItems([item]) }
                }
            })
        }
        return jobs
    }

    public func status(of list: Snapshot<String, String>) -> String {
        let more = list.numberOfItems < library.photos.count ? "" : " (all)"
        return "\(list.numberOfItems.grouped) of \(library.photos.count.grouped) photos\(more)"
    }

    /// The layout and the image loads, for scripts.
    public func details(of list: Snapshot<String, String>) -> String {
        "\(photoLayout.title) · images loaded \(loadsCompleted.grouped) of \(loadsStarted.grouped) started"
    }

    public var pageValues: PageValues { PageValues(layout: photoLayout) }
}
