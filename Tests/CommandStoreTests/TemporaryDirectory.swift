import Foundation

/// A fresh folder under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String = #function) throws {
        let name = "commandstore-\(label.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))"
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
