import Foundation
import HTTPTestSupport
import Logging
import Testing
@testable import DiffableWeb
@testable import DiffableWebDemos

/// Image headers (pixel size without decoding) and the photo folder that uses them.
@Suite("Photos: image headers and the photo folder", .stopsLiveServers)
struct PhotoLibraryTests {
    /// A complete 1×1 PNG.
    static let png1x1 = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    /// SOI, an APP0 (JFIF) segment, a comment, then a baseline or progressive frame header.
    static func jpeg(width: Int, height: Int, marker: UInt8 = 0xC0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xFE, 0x00, 0x07] + Array("hello".utf8)
        bytes += [0xFF, marker, 0x00, 0x11, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return bytes + [0xFF, 0xD9]
    }

    static func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(4 + 8 + payload.count)
        return Array("RIFF".utf8) + withUnsafeBytes(of: size.littleEndian, Array.init) + Array("WEBP".utf8) + Array(chunk.utf8)
            + withUnsafeBytes(of: UInt32(payload.count).littleEndian, Array.init) + payload
    }

    @Test("PNG, JPEG (baseline, progressive, after other segments) and WebP (VP8, VP8L, VP8X) sizes are read from the header")
    func headers() throws {
        #expect(ImageHeader(Self.png1x1) == ImageHeader(format: .png, width: 1, height: 1))
        #expect(ImageHeader(Self.jpeg(width: 4032, height: 3024)) == ImageHeader(format: .jpeg, width: 4032, height: 3024))
        #expect(ImageHeader(Self.jpeg(width: 640, height: 480, marker: 0xC2)) == ImageHeader(format: .jpeg, width: 640, height: 480))
        // VP8: frame tag (3 bytes), start code, 14-bit width and height.
        let vp8 = Self.riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x07, 0x38, 0x04] + [UInt8](repeating: 0, count: 8))
        #expect(ImageHeader(vp8) == ImageHeader(format: .webp, width: 1920, height: 1080))
        // VP8L: signature 0x2F, then (width − 1) and (height − 1) in 14 bits each.
        let bits = UInt32(99) | UInt32(49) << 14
        let vp8l = Self.riff("VP8L", [0x2F] + withUnsafeBytes(of: bits.littleEndian, Array.init) + [UInt8](repeating: 0, count: 8))
        #expect(ImageHeader(vp8l) == ImageHeader(format: .webp, width: 100, height: 50))
        // VP8X: flags, reserved, then canvas (width − 1) and (height − 1) in 24 bits each.
        let vp8x = Self.riff("VP8X", [0, 0, 0, 0, 0x9F, 0x0F, 0x00, 0xBF, 0x0B, 0x00] + [UInt8](repeating: 0, count: 8))
        #expect(ImageHeader(vp8x) == ImageHeader(format: .webp, width: 4000, height: 3008))
    }

    @Test("truncated or foreign bytes are not an image", arguments: [
        [UInt8](), Array("GIF89a".utf8) + [1, 0, 1, 0], [0xFF, 0xD8, 0xFF, 0xDA, 0, 2], [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8],
        Array(PhotoLibraryTests.png1x1.prefix(20)), Array("RIFF\0\0\0\0WEBPVP8 ".utf8),
    ])
    func notImages(bytes: [UInt8]) {
        #expect(ImageHeader(bytes) == nil)
    }
}

/// Collects log lines.
final class LogCapture: LogHandler, @unchecked Sendable {
    // Test-only: written from the code under test, read after it returns.
    var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        lines.append("\(event.message)")
    }
}

extension LivePhotosTests {
    @Test("a folder's images get their sizes; a broken file stays a placeholder, is logged, and the demo runs")
    func folder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dw-photos-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try PhotoLibraryTests.png1x1.write(to: directory.appendingPathComponent("b dot.png"))
        try Data(PhotoLibraryTests.jpeg(width: 300, height: 200)).write(to: directory.appendingPathComponent("a.JPG"))
        try Data("not an image".utf8).write(to: directory.appendingPathComponent("c.webp"))
        try Data("ignored".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let log = LogCapture()
        let library = try PhotoLibrary.folder(directory.path, logger: Logger(label: "test") { _ in log })
        #expect(library.photos.map(\.id) == ["a.JPG", "b dot.png", "c.webp"])
        #expect(library.photos.map { [$0.width, $0.height] } == [[300, 200], [1, 1], [4, 3]])
        #expect(library.photos.map(\.asset) == ["a.JPG", "b dot.png", nil])
        #expect(log.lines.count == 1 && log.lines[0].contains("c.webp"))

        let live = try await LiveServer.start { $0.demos = [try Photos.descriptor(library: library, imageLatency: 0...0)] }
        let page = try await get(port: live.port, "/demos/photos")
        #expect(page.status == 200 && page.text.contains(#"aria-label="c, loading""#))
        let file = try await get(port: live.port, "/demos/photos/assets/b%20dot.png")
        #expect(file.status == 200 && file.body == Array(PhotoLibraryTests.png1x1) && file.header("Content-Type") == "image/png")
        let etag = try #require(file.header("ETag"))
        #expect(try await get(port: live.port, "/demos/photos/assets/b%20dot.png", headers: ["If-None-Match": etag]).status == 304)
        #expect(try await get(port: live.port, "/demos/photos/assets/notes.txt").status == 404, "only the library's images are served")
        #expect(try await get(port: live.port, "/demos/photos/assets/c.webp").status == 404, "nor a file that is not one")
        #expect(try await get(port: live.port, "/demos/photos/assets/..%2F..%2Fetc%2Fpasswd").status == 404)
    }
}
