/// zlib's four match-search parameters (`deflateTune`): a match this long ends the lazy search
/// (`goodLength`), the longest match inserted without lazy evaluation at levels 1–3 (`maxLazy`), a
/// match this long ends the search (`niceLength`), and how many candidates are tried (`maxChain`).
public struct DeflateTuning: Sendable, Hashable {
    public var goodLength: Int
    public var maxLazy: Int
    public var niceLength: Int
    public var maxChain: Int

    public init(goodLength: Int, maxLazy: Int, niceLength: Int, maxChain: Int) {
        (self.goodLength, self.maxLazy, self.niceLength, self.maxChain) = (goodLength, maxLazy, niceLength, maxChain)
    }

    /// For level 3 on event streams: stop at a 64-byte match, try at most 16 candidates.
    public static let keystroke = DeflateTuning(goodLength: 4, maxLazy: 6, niceLength: 64, maxChain: 16)
}
