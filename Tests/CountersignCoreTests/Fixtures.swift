import Foundation

/// The files in `Tests/Fixtures` that the Swift tests and the web app's `node --test` tests both read.
enum Fixtures {
    /// `Tests/Fixtures/<name>`, found from this file's path.
    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    /// The JSON file `name` decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: url(name)))
    }
}
