extension DiffableDataSource {
    /// Why `snapshot` may not become current (a size limit it passes), or `nil` to let it.
    public typealias Admission = @Sendable (_ snapshot: Snapshot<SectionID, ItemID>) -> (any Error)?

    /// A rule every snapshot must keep to be applied, checked before it is diffed: the owner's
    /// limits (at most so many items) in one place, whoever applies.
    ///
    /// An apply the rule refuses changes nothing: the snapshot and the version stay, observers
    /// are not called, and the apply returns an update with the current snapshot, the current
    /// version and an empty changeset. The refusal is kept for ``takeRefusal()``; until it is
    /// taken, every apply is refused, so a change made of several applies stops at the first
    /// refused one (the applies before it stay made). Not checked: ``restore(_:version:)``, and
    /// ``apply(_:asVersion:animatingDifferences:)``, which copies another data source's apply
    /// (checked there).
    ///
    /// ```swift
    /// dataSource.admission = { $0.numberOfItems > 1_000 ? TooLarge() : nil }
    /// someoneApplies(to: dataSource)
    /// if let refusal = dataSource.takeRefusal() { throw refusal }
    /// ```
    /// - Complexity: the rule runs once per apply, on the applying thread, with no lock of the
    ///   data source held by the caller's code: keep it O(1) (`numberOfItems` is).
    public var admission: Admission? {
        get { state.withLock { $0.admission } }
        set { state.withLock { $0.admission = newValue } }
    }

    /// Why an apply was refused since the last call (the first refusal), or `nil` when none was;
    /// applies are admitted again afterwards.
    public func takeRefusal() -> (any Error)? {
        state.withLock { state in
            defer { state.refusal = nil }
            return state.refusal
        }
    }
}
