// A list is written against DiffableWeb alone: the snapshot and layout types it uses come
// with it (`import DiffableWeb` is enough for a ``WebList``).
@_exported import CompositionalLayout
@_exported import DiffableDataSources
@_exported import struct Foundation.IndexPath
