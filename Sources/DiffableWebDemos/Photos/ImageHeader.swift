import DiffableWeb
/// The pixel size and type of a JPEG, PNG or WebP image, read from its first bytes (the header
/// alone: nothing is decoded).
///
/// ```swift
/// let header = ImageHeader(bytes)   // nil: not an image of these types, or truncated
/// header?.width                     // 4032
/// ```
public struct ImageHeader: Sendable, Equatable {
    public enum Format: String, Sendable { case jpeg, png, webp }

    public var format: Format
    public var width: Int
    public var height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Parses `bytes` (the start of a file: 64 KiB is plenty unless a JPEG carries a large
    /// thumbnail before its frame header). `nil` when they are not a JPEG, PNG or WebP header.
    public init?(_ bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(1 << 20))
        if let size = Self.png(b) { (format, width, height) = (.png, size.0, size.1) }
        else if let size = Self.jpeg(b) { (format, width, height) = (.jpeg, size.0, size.1) }
        else if let size = Self.webp(b) { (format, width, height) = (.webp, size.0, size.1) }
        else { return nil }
        guard width > 0, height > 0 else { return nil }
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }

    /// The signature, then the IHDR chunk: width and height as big-endian 32-bit integers.
    private static func png(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              b[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        return (be32(b, 16), be32(b, 20))
    }

    /// Walks the segments after SOI to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
    private static func jpeg(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                              // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }                  // end, or scan before any frame
            let length = be16(b, i + 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard i + 9 <= b.count else { return nil }
                return (be16(b, i + 7), be16(b, i + 5))                         // SOF: precision, height, width
            }
            i += 2 + length
        }
        return nil
    }

    /// RIFF/WEBP with a VP8 (lossy), VP8L (lossless) or VP8X (extended) first chunk.
    private static func webp(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30, b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8)) else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }   // the key frame's start code
            return (le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return (le24(b, 24) + 1, le24(b, 27) + 1)
        default:
            return nil
        }
    }
}
