/// A demo's state as a write found it, put back when the write is refused or undone.
///
/// A demo that keeps its state as a value (a ``WebList``: ``KeepsStateValue``) is checkpointed
/// by keeping that value, without encoding it: a keystroke pays no save format for a refusal
/// that almost never comes. Any other demo is checkpointed by its ``Demo/persistentState()``.
enum DemoCheckpoint: Sendable {
    /// The state's saved form, given back through ``Demo/restore(state:)``.
    case saved([String: String])
    /// The state's value, given back through ``KeepsStateValue/restore(_:)``.
    case kept(any Sendable)
}

/// A demo whose state is one value it can hand out and take back as it is (a typed list's
/// ``WebList`` value): its checkpoints cost a copy, not an encoding.
protocol KeepsStateValue: Demo {
    /// The state now.
    func checkpoint() -> DemoCheckpoint
    /// Puts back a state this demo's ``checkpoint()`` gave (anything else is ignored).
    func restore(_ checkpoint: DemoCheckpoint)
}
