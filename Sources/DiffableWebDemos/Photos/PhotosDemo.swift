import CompositionalLayout
import DiffableDataSources
import DiffableWeb
import Foundation
import Synchronization

/// The seed's photo grid (../shared/SEEDS.md, 001): its compositional layouts, switched live;
/// pagination (`loadData()` appends the next page of 30 when the client nears the end); and
/// async images (`loadImages`: a cell shows a placeholder, the image "loads" off the writer
/// path, then `reloadItems([photo])` runs only if the photo is still in the snapshot).
public final class PhotosDemo: Demo {
    public static let section = "main"
    public static let pageSize = 30
    /// Loads start when a photo is this close to the end of the list in some window.
    static let prefetchDistance = 10

    /// - Parameters:
    ///   - imageLatency: the simulated load time of an image, in milliseconds (each load draws
    ///     from the range); `0...0` loads at once (tests).
    ///   - imageGate: when set, each load waits for it instead of `imageLatency` (tests: loads
    ///     that finish when the test says, not after a time).
    public static func descriptor(library: PhotoLibrary, imageLatency: ClosedRange<Int> = 50...400,
                                  imageGate: (@Sendable (_ item: String) async -> Void)? = nil) -> DemoDescriptor {
        DemoDescriptor(
            name: "photos", title: "Photos",
            summary: "The seed’s compositional layouts, switched live; pages load as you scroll; images arrive after their placeholders.",
            pageTemplate: "demos/photos",
            cellTemplates: ["cells/photo"],
            actions: [
                ActionDescriptor(name: "setLayout", description: "Switch the layout; every cell animates to its new frame",
                                 parameters: [.init(name: "layout", type: "string", required: true, description: "The layout",
                                                    choices: PhotoLayout.allCases.map(\.rawValue))]),
                ActionDescriptor(name: "loadMore", description: "loadData(): append the next page of 30 photos"),
                ActionDescriptor(name: "clear", description: "Apply an empty snapshot; the next loadData() starts again from page 1"),
            ],
            example: ExampleRequest(action: "setLayout", body: #"{"layout":"grid"}"#),
            assets: library.directory.map { .directory($0, names: Set(library.photos.compactMap(\.asset))) } ?? .generated { name in
                library.svg(for: name).map { DemoAsset(contentType: "image/svg+xml", bytes: $0) }
            },
            make: { PhotosDemo(library: library, imageLatency: imageLatency, imageGate: imageGate) })
    }

    private struct State {
        var layout = PhotoLayout.leftThreeRightThree
        /// The next page `loadData()` appends (0-based).
        var nextPage = 0
        var pageRequested = false
        /// Photos whose image has arrived, and those still loading.
        var loaded: Set<String> = []
        var loading: Set<String> = []
        /// Loads finished but not yet applied (one apply takes them all).
        var finished: [String] = []
        var flushScheduled = false
        /// Counters for the page status and the API (`GET …/snapshot` data).
        var loadsStarted = 0
        var loadsCompleted = 0
    }

    let library: PhotoLibrary
    let imageLatency: ClosedRange<Int>
    let imageGate: (@Sendable (_ item: String) async -> Void)?
    private let state = Mutex(State())
    private let list = Mutex<ListHandle?>(nil)

    init(library: PhotoLibrary, imageLatency: ClosedRange<Int>, imageGate: (@Sendable (_ item: String) async -> Void)? = nil) {
        self.library = library
        self.imageLatency = imageLatency
        self.imageGate = imageGate
    }

    public func initialSnapshot() -> Snapshot<String, String> {
        var snapshot = Snapshot<String, String>()
        appendNextPage(to: &snapshot)
        return snapshot
    }

    public func layout() -> CompositionalLayout { state.withLock { $0.layout }.layout }

    public func cell(for item: String) -> CellContent? {
        guard let photo = library.photo(id: item) else { return nil }
        let loaded = state.withLock { $0.loaded.contains(item) }
        var values = ["caption": photo.caption, "width": String(photo.width), "height": String(photo.height)]
        if loaded, let asset = photo.asset {
            values["src"] = "/demos/photos/assets/" + (asset.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? asset)
        }
        return CellContent(template: "cells/photo", values: values)
    }

    public func data(for item: String) -> [String: String]? {
        guard let photo = library.photo(id: item) else { return nil }
        let loaded = state.withLock { $0.loaded.contains(item) }
        return ["caption": photo.caption, "width": String(photo.width), "height": String(photo.height), "loaded": String(loaded)]
    }

    public func supplementary(kind: CellKind, section: String, in snapshot: Snapshot<String, String>) -> CellContent? { nil }

    public func perform(_ action: String, parameters: ActionParameters, on dataSource: ListTransaction) throws(ActionError) {
        switch action {
        case "setLayout":
            let name = try parameters.requiredString("layout")
            guard let layout = PhotoLayout(rawValue: name) else {
                throw .invalidParameter("layout", "must be one of \(PhotoLayout.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            state.withLock { $0.layout = layout }
            // The same snapshot under a new layout: nothing is inserted or deleted, and every
            // cell in a window moves to its new frame.
            dataSource.apply(dataSource.snapshot(), animatingDifferences: true)
        case "loadMore":
            loadData(on: dataSource)
        case "clear":
            state.withLock { state in
                state.nextPage = 0
                state.loaded.removeAll()
                state.finished.removeAll()
            }
            dataSource.apply(Snapshot(), animatingDifferences: true)
        default:
            throw .unknownAction(action)
        }
    }

    public func status(of snapshot: Snapshot<String, String>) -> String {
        let more = snapshot.numberOfItems < library.photos.count ? "" : " (all)"
        return "\(snapshot.numberOfItems.grouped) of \(library.photos.count.grouped) photos\(more)"
    }

    /// The layout and the image loads, for scripts.
    public func details(of snapshot: Snapshot<String, String>) -> String {
        let (layout, started, completed) = state.withLock { ($0.layout, $0.loadsStarted, $0.loadsCompleted) }
        return "\(layout.title) · images loaded \(completed.grouped) of \(started.grouped) started"
    }

    public func pageValues() -> [String: String] {
        ["layout": state.withLock { $0.layout }.rawValue]
    }

    public func persistentState() -> [String: String] {
        state.withLock { ["layout": $0.layout.rawValue, "nextPage": String($0.nextPage)] }
    }

    /// The layout and the next page come back; images load again (their cells start as placeholders).
    public func restore(state saved: [String: String]) {
        state.withLock { state in
            if let layout = saved["layout"].flatMap(PhotoLayout.init(rawValue:)) { state.layout = layout }
            if let page = saved["nextPage"].flatMap(Int.init), page >= 0 { state.nextPage = page }
        }
    }

    // MARK: loadData()

    /// The seed's `loadData()`: appends the next page to the current snapshot, adding the
    /// section when the snapshot has none. Does nothing once every photo is shown.
    func loadData(on dataSource: ListTransaction) {
        var snapshot = dataSource.snapshot()
        guard appendNextPage(to: &snapshot) else { return }
        dataSource.apply(snapshot, animatingDifferences: true)
    }

    @discardableResult
    private func appendNextPage(to snapshot: inout Snapshot<String, String>) -> Bool {
        let page = state.withLock { state -> ArraySlice<Photo> in
            state.pageRequested = false
            let start = state.nextPage * Self.pageSize
            guard start < library.photos.count else { return [] }
            state.nextPage += 1
            return library.photos[start..<min(start + Self.pageSize, library.photos.count)]
        }
        guard !page.isEmpty else { return false }
        if snapshot.sectionIdentifiers.isEmpty { try? snapshot.appendSections([Self.section]) }
        do {
            try snapshot.appendItems(page.map(\.id), toSection: Self.section)
        } catch {
            // A page already shown (a clear raced a load): nothing to add.
            return false
        }
        return true
    }

    // MARK: Windows: pagination and image loads

    public func attach(_ list: ListHandle) { self.list.withLock { $0 = list } }

    public var observesWindows: Bool { true }

    public func windowDidChange(_ window: WindowItems) {
        guard let list = list.withLock({ $0 }) else { return }
        let (toLoad, nextPage) = state.withLock { state -> ([String], Bool) in
            var toLoad: [String] = []
            for item in window.items where !state.loaded.contains(item) && !state.loading.contains(item) {
                guard library.photo(id: item)?.asset != nil else { continue }  // unreadable: stays a placeholder
                state.loading.insert(item)
                toLoad.append(item)
            }
            state.loadsStarted += toLoad.count
            var nextPage = false
            if let last = window.lastPosition, last >= window.itemCount - Self.prefetchDistance,
               !state.pageRequested, state.nextPage * Self.pageSize < library.photos.count {
                state.pageRequested = true
                nextPage = true
            }
            return (toLoad, nextPage)
        }
        if nextPage {
            Task { await list.write { self.loadData(on: $0) } }
        }
        for item in toLoad {
            let (delay, gate) = (Int.random(in: imageLatency), imageGate)
            Task {
                if let gate {
                    await gate(item)
                } else if delay > 0 {
                    try? await Task.sleep(for: .milliseconds(delay))
                }
                self.imageDidLoad(item, list: list)
            }
        }
    }

    /// The seed's `loadImages`: the image is set, then the photo is reloaded only if the
    /// snapshot still has it. Loads that finish together are applied together.
    private func imageDidLoad(_ item: String, list: ListHandle) {
        let flush = state.withLock { state -> Bool in
            state.loading.remove(item)
            state.loaded.insert(item)
            state.loadsCompleted += 1
            state.finished.append(item)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        guard flush else { return }
        Task {
            await list.write { dataSource in
                let finished = self.state.withLock { state -> [String] in
                    state.flushScheduled = false
                    defer { state.finished.removeAll() }
                    return state.finished
                }
                var snapshot = dataSource.snapshot()
                let present = finished.filter { snapshot.indexOfItem($0) != nil }
                guard !present.isEmpty else { return }  // deleted while loading: no error, no event
                try? snapshot.reloadItems(present)  // present: cannot fail
                dataSource.apply(snapshot, animatingDifferences: false)
            }
        }
    }
}
