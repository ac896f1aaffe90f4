import Foundation
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// The generated landscapes that Photos, URL stream, Explore and Destinations show.
@Suite("Generated pictures")
struct GeneratedPictureTests {
    static let library = PhotoLibrary.generated(captions: ["Mount Everest", "K2 & <Friends>"], count: 12)

    @Test("a generated picture carries no text: the page draws every caption itself")
    func noText() throws {
        for photo in Self.library.photos {
            let bytes = try #require(Self.library.svg(for: photo.id + ".svg"))
            let svg = String(decoding: bytes, as: UTF8.self)
            #expect(!svg.contains("<text"), "\(photo.id) draws text")
            #expect(!svg.contains(photo.caption) && !svg.contains("Mount") && !svg.contains("×"), "\(photo.id) names its caption or size")
        }
    }

    @Test("a generated picture is an SVG at the photo's pixel size, the same every time")
    func sizeAndDeterminism() throws {
        let photo = try #require(Self.library.photos.first)
        let bytes = try #require(Self.library.svg(for: photo.id + ".svg"))
        let svg = String(decoding: bytes, as: UTF8.self)
        #expect(svg.hasPrefix("<svg ") && svg.hasSuffix("</svg>"))
        #expect(svg.contains(#"width="\#(photo.width)" height="\#(photo.height)""#))
        #expect(Self.library.svg(for: photo.id + ".svg") == bytes)
    }
}
