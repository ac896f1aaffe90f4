import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// A URL stream cell shows a picture only for a path on this server: an item id put through the
/// snapshot API is not validated as a URL, so `//host/…` must not become `<img src="//host/…">`.
@Suite("URL stream cells: only same-origin paths become pictures")
struct URLStreamCellTests {
    let demo = URLStream(urls: ["/demos/photos/assets/p001.svg"], interval: 60_000...60_000)

    @Test("a path from this server's root is shown as a picture",
          arguments: ["/demos/photos/assets/p001.svg", "/a.png"])
    func sameOrigin(_ item: String) {
        #expect(demo.cell(for: item)?.src == item)
    }

    @Test("another origin, spelled as a path or a URL, shows only its address",
          arguments: ["//evil.example/p.png", "/\\evil.example/p.png", "https://evil.example/p.png", "javascript:alert(1)", "p.png"])
    func otherOrigin(_ item: String) {
        let cell = demo.cell(for: item)
        #expect(cell?.src == nil)
        #expect(cell?.url == item)
    }
}
