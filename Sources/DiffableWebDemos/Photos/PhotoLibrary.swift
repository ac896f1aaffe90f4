import DiffableWeb
import Foundation
import Logging

/// One photo of the library: its identifier (the snapshot's item), caption and pixel size.
public struct Photo: Sendable, Hashable {
    public var id: String
    public var caption: String
    public var width: Int
    public var height: Int
    /// The asset's name under `/demos/photos/assets/`, or `nil` when the file could not be read
    /// (the cell keeps its placeholder).
    public var asset: String?
}

/// Where the photo grid's photos come from: generated landscapes (the default, deterministic,
/// no network), or a folder of JPEG, PNG and WebP files (`--photos DIR`).
public struct PhotoLibrary: Sendable {
    public let photos: [Photo]
    private let index: [String: Int]
    /// The folder served for assets, or `nil` for the generated landscapes.
    public let directory: String?

    init(photos: [Photo], directory: String?) {
        self.photos = photos
        self.directory = directory
        index = Dictionary(photos.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func photo(id: String) -> Photo? { index[id].map { photos[$0] } }

    // MARK: Generated landscapes

    /// `count` landscapes, one per caption (cycled), with real pixel sizes of common cameras.
    public static func generated(captions: [String], count: Int = 300) -> PhotoLibrary {
        let sizes = [(4032, 3024), (3024, 4032), (1920, 1080), (2048, 2048), (3000, 2000), (1080, 1350)]
        let photos = (0..<max(0, count)).map { n -> Photo in
            let (width, height) = sizes[n % sizes.count]
            let caption = captions.isEmpty ? "Landscape \(n + 1)" : captions[n % captions.count]
            let id = String(format: "p%03d", n + 1)
            return Photo(id: id, caption: caption, width: width, height: height, asset: id + ".svg")
        }
        return PhotoLibrary(photos: photos, directory: nil)
    }

    /// The SVG of a generated landscape: a sky gradient, a sun and two ridges, drawn at the
    /// photo's pixel size. The same photo always draws the same picture. It carries no text:
    /// the page shows each picture's caption itself, and a caption drawn into the image would
    /// be cropped by `object-fit: cover` and sit on top of the page's own.
    public func svg(for asset: String) -> [UInt8]? {
        guard directory == nil, asset.hasSuffix(".svg"), let photo = photo(id: String(asset.dropLast(4))) else { return nil }
        var random = SplitMix(seed: UInt64(index[photo.id] ?? 0) &+ 0x9E37_79B9)
        let (w, h) = (Double(photo.width), Double(photo.height))
        let hue = Int(random.next() % 360)
        func ridge(base: Double, amplitude: Double) -> String {
            var points = "0,\(Int(h)) "
            for step in 0...8 {
                let x = w * Double(step) / 8
                let y = h * (base - amplitude * Double(random.next() % 1000) / 1000)
                points += "\(Int(x)),\(Int(y)) "
            }
            return points + "\(Int(w)),\(Int(h))"
        }
        let sunX = Int(w * (0.15 + 0.7 * Double(random.next() % 1000) / 1000)), sunY = Int(h * 0.3), sunR = Int(min(w, h) * 0.08)
        let text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(photo.width)" height="\(photo.height)" viewBox="0 0 \(photo.width) \(photo.height)">\
            <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">\
            <stop offset="0" stop-color="hsl(\(hue),60%,38%)"/><stop offset="1" stop-color="hsl(\((hue + 40) % 360),70%,78%)"/>\
            </linearGradient></defs>\
            <rect width="100%" height="100%" fill="url(#sky)"/>\
            <circle cx="\(sunX)" cy="\(sunY)" r="\(sunR)" fill="hsl(\((hue + 180) % 360),90%,85%)" opacity="0.9"/>\
            <polygon points="\(ridge(base: 0.62, amplitude: 0.3))" fill="hsl(\((hue + 200) % 360),25%,35%)"/>\
            <polygon points="\(ridge(base: 0.85, amplitude: 0.2))" fill="hsl(\((hue + 210) % 360),30%,20%)"/>\
            </svg>
            """
        return Array(text.utf8)
    }

    // MARK: A folder of files

    /// Every JPEG, PNG and WebP file directly in `directory`, by name; each one's pixel size
    /// read from its header. A file that cannot be read or is not such an image is kept as a
    /// placeholder (no asset) and logged: the demo keeps running.
    /// - Throws: when `directory` cannot be listed.
    public static func folder(_ directory: String, logger: Logger) throws -> PhotoLibrary {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { ["jpg", "jpeg", "png", "webp"].contains(($0 as NSString).pathExtension.lowercased()) && !$0.hasPrefix(".") }
            .sorted()
        var photos: [Photo] = []
        for name in names {
            let caption = (name as NSString).deletingPathExtension
            let header = (try? FileHandle(forReadingFrom: root.appendingPathComponent(name)))
                .flatMap { handle -> ImageHeader? in
                    defer { try? handle.close() }
                    return (try? handle.read(upToCount: 256 * 1024)).flatMap { ImageHeader($0) }
                }
            if let header {
                photos.append(Photo(id: name, caption: caption, width: header.width, height: header.height, asset: name))
            } else {
                logger.warning("photos: \(name) is not a readable JPEG, PNG or WebP file; it is shown as a placeholder")
                photos.append(Photo(id: name, caption: caption, width: 4, height: 3, asset: nil))
            }
        }
        return PhotoLibrary(photos: photos, directory: root.path)
    }
}

/// A small deterministic generator (SplitMix64): the same photo draws the same picture.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
