/// A list whose saved state, from before it was typed, is not its properties' keys (the untyped
/// `Demo` API saved dictionaries of any shape): it reads that dictionary itself. A state saved
/// since is read as usual.
public protocol UpgradesUntypedState: WebList {
    /// The state `saved` describes, or `nil` to start anew; the list's ``Shared`` values are
    /// in reach.
    init?(untypedState saved: [String: String])
}
