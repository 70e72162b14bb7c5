/// A stable 64-bit hash of a row's source text: stored with each ledger row, so a re-import
/// of an unchanged file can tell the rows it would rewrite unchanged, and skip them.
///
/// Not Swift's `Hasher` (seeded per process): the value must be the same in every run.
package enum RowHash {
    /// Bumped whenever the same source text would be stored differently, so that rows hashed by
    /// an earlier parse are rewritten once.
    package static let parseVersion: UInt64 = 1

    /// The seed of a file's rows: the parse version and the file's header (the same line under
    /// another header is another row).
    package static func seed(header: some Sequence<UInt8>) -> UInt64 {
        let bytes = Array(header)
        return bytes.withUnsafeBytes { hash($0, seed: parseVersion) }
    }

    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var h = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        let count = bytes.count
        while i + 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        // Final avalanche (MurmurHash3's fmix64).
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    package static func hash(_ text: String, seed: UInt64) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0), seed: seed) }
    }
}
