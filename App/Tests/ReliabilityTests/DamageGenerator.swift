import Foundation
import TestSupport

/// Makes damaged copies of a real database file: what a disk, a crash or a careless user can leave.
///
/// Deterministic for a given seed: each damage has a name saying what was done (`bitflip-0412-b3`,
/// `truncate-page-3`), so a failure can be rebuilt and looked at.
struct DamageGenerator {
    /// One damaged library: what sits at the library's path (and next to it).
    struct Damage {
        enum Content {
            /// A file with these bytes.
            case file(Data)
            /// A folder where the file should be.
            case directory
            /// No main file; only its `-wal` log (from another database), with these bytes.
            case walWithoutDatabase(Data)
            /// The main file plus a `-wal` log that does not belong to it.
            case fileWithForeignWAL(Data, wal: Data)
        }

        var name: String
        var content: Content

        /// Writes the damage at `path`.
        func write(at path: String) throws {
            switch content {
            case .file(let data):
                try data.write(to: URL(fileURLWithPath: path))
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .walWithoutDatabase(let wal):
                try wal.write(to: URL(fileURLWithPath: path + "-wal"))
            case .fileWithForeignWAL(let data, let wal):
                try data.write(to: URL(fileURLWithPath: path))
                try wal.write(to: URL(fileURLWithPath: path + "-wal"))
            }
        }
    }

    /// The intact database file.
    let original: Data
    /// A `-wal` file holding committed, uncheckpointed frames of a database of the same page size.
    let wal: Data
    /// Another application's SQLite database.
    let foreign: Data

    /// The page size recorded in the file's header (bytes 16–17; 1 means 65536).
    var pageSize: Int {
        guard original.count >= 18 else { return 4096 }
        let raw = Int(original[16]) << 8 | Int(original[17])
        return raw == 1 ? 65536 : raw
    }

    /// Every kind of damage: `bitFlips` random single-bit flips (seeded), a truncation at every
    /// page boundary and in the middle of every page, every page zeroed in turn, every page's header
    /// area scrambled, and the odd cases (empty file, folder, foreign database, WAL without its
    /// database, a foreign WAL).
    func damages(bitFlips: Int, seed: UInt64) -> [Damage] {
        var damages: [Damage] = []
        let size = original.count
        let pages = (size + pageSize - 1) / pageSize
        var random = SplitMix64(seed: seed)
        for flip in 0..<bitFlips {
            // Half the flips in the first page (header and schema), where they matter most.
            let limit = flip % 2 == 0 ? min(size, pageSize) : size
            let offset = Int(random.next() % UInt64(limit))
            let bit = Int(random.next() % 8)
            var bytes = original
            bytes[offset] ^= UInt8(1 << bit)
            damages.append(
                Damage(name: String(format: "bitflip-%04d-at-%d-b%d", flip, offset, bit), content: .file(bytes)))
        }
        for page in 0..<pages {
            damages.append(Damage(name: "truncate-page-\(page)", content: .file(original.prefix(page * pageSize))))
            damages.append(
                Damage(
                    name: "truncate-mid-page-\(page)", content: .file(original.prefix(page * pageSize + pageSize / 2))))
            var zeroed = original
            zeroed.replaceSubrange(
                page * pageSize..<min(size, (page + 1) * pageSize),
                with: Data(count: min(size, (page + 1) * pageSize) - page * pageSize))
            damages.append(Damage(name: "zero-page-\(page)", content: .file(zeroed)))
            var scrambled = original
            // A b-tree page header: after the file header on page 1.
            let start = page * pageSize + (page == 0 ? 100 : 0)
            for offset in start..<min(size, start + 12) { scrambled[offset] = UInt8(truncatingIfNeeded: random.next()) }
            damages.append(Damage(name: "scramble-page-header-\(page)", content: .file(scrambled)))
        }
        damages.append(Damage(name: "empty-file", content: .file(Data())))
        damages.append(Damage(name: "text-file", content: .file(Data("title,artist\nBlue,Joni Mitchell\n".utf8))))
        damages.append(Damage(name: "sqlite-header-only", content: .file(original.prefix(100))))
        damages.append(Damage(name: "directory", content: .directory))
        damages.append(Damage(name: "foreign-sqlite-database", content: .file(foreign)))
        damages.append(Damage(name: "wal-without-database", content: .walWithoutDatabase(wal)))
        damages.append(Damage(name: "database-with-foreign-wal", content: .fileWithForeignWAL(original, wal: wal)))
        return damages
    }
}
