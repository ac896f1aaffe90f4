import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// A URL stream cell shows a picture only for a path on this server: an item id put through the
/// snapshot API is not validated as a URL, so `//host/…` must not become `<img src="//host/…">`.
@Suite("URL stream cells: only same-origin paths become pictures")
struct URLStreamCellTests {
    let demo = URLStreamDemo(urls: ["/demos/photos/assets/p001.svg"], interval: 60_000...60_000)

    @Test("a path from this server's root is shown as a picture",
          arguments: ["/demos/photos/assets/p001.svg", "/a.png"])
    func sameOrigin(_ item: String) {
        #expect(demo.cell(for: item)?.values["src"] == item)
    }

    @Test("another origin, spelled as a path or a URL, shows only its address",
          arguments: ["//evil.example/p.png", "/\\evil.example/p.png", "https://evil.example/p.png", "javascript:alert(1)", "p.png"])
    func otherOrigin(_ item: String) {
        let values = demo.cell(for: item)?.values ?? [:]
        #expect(values["src"] == nil)
        #expect(values["url"] == item)
    }
}
