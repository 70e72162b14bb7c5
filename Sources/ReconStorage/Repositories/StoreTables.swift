import ReconModel

/// One concern's tables in the store, read and written over the store's one connection.
///
/// Each repository is a view of ``ReconStore``: it keeps no state of its own, so any number of them share the
/// connection, its transactions and its lock.
package protocol StoreTables {
    var store: ReconStore { get }
}

extension StoreTables {
    package var db: any StoreDatabase { store.db }
    package var clock: any ReconClock { store.clock }
    package var path: String { store.path }

    package func write<T>(_ body: () throws -> T) throws -> T {
        try store.write(body)
    }

    /// Runs `body` in one read transaction: every query in it sees the same committed state.
    package func read<T>(_ body: () throws -> T) throws -> T {
        try store.read(body)
    }
}
