import Logging

/// Where one list is saved: the store, the list's key in it, and what to do with a list that
/// can no longer be saved (its session forgets it, and makes it again from the store).
struct ListStorage: Sendable {
    let store: any SessionStore
    let key: ListKey
    let logger: Logger
    let retired: @Sendable (LiveList) -> Void
}

/// Why a write to a list failed in the store. The list is retired: the next request makes it
/// again from what the store has, so nothing a client was told succeeded is lost, and nothing
/// unsaved is shown.
public enum ListStoreError: Error, CustomStringConvertible {
    /// The store refused or could not take the change.
    case saveFailed(String)
    /// Another process made this list afresh (another epoch): this copy is out of date.
    case replaced
    /// The list was retired by an earlier failure.
    case retired
    /// The store could not be read or written (a list could not be made).
    case unavailable(String)
    /// Another server process saved a change to this list first, and this write (and those
    /// made on it) was not saved: the list is made again from the store, and the request may
    /// run again on it (``WebApp`` does, a few times).
    case lostRace(String)

    public var description: String {
        switch self {
        case .saveFailed(let reason): "the change could not be saved: \(reason)"
        case .replaced: "the list was made again by another server process"
        case .retired: "the list is being reloaded from the store"
        case .unavailable(let reason): "the session store is unavailable: \(reason)"
        case .lostRace(let reason): "the change could not be saved: \(reason)"
        }
    }
}
