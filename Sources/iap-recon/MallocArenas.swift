#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator's per-thread arenas, limited before any thread starts.
///
/// glibc gives each thread that allocates under contention its own arena (up to eight per core), and memory freed
/// into one arena serves only that arena. An import from PostgreSQL allocates on the network event loop and on
/// the reading thread and frees on the store's writing thread, so with the default the peak grew with the rows
/// read: 345 MB for 10,000,000 rows against 233 MB for 1,000,000 (`make bench`). Two arenas keep it flat
/// (220–227 MB at 10,000,000), at no measured cost to the import or the report (mallopt(3), `M_ARENA_MAX`).
enum MallocArenas {
    static let limit: Int32 = 2
    /// `M_ARENA_MAX` of `<malloc.h>`, a macro Swift does not import.
    private static let arenaMax: Int32 = -8

    /// Sets glibc's `M_ARENA_MAX` to ``limit``; elsewhere, nothing.
    ///
    /// `mallopt` is declared in `<malloc.h>`, which the Glibc module leaves out: it is looked up by name and called
    /// with the C calling convention.
    static func limitArenas() {
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, limit)
        #endif
    }
}
