// Checks one module's DocC catalog against its symbol graphs (run by Scripts/generate-docs.sh).
//
// 1. Curation: every public symbol of the module (types, members, cases; not the ones the
//    compiler synthesizes, such as `!=` or `hashValue`) must be linked (``Symbol``) from a
//    `## Topics` section of a page of the catalog (the landing page or Extensions/<Type>.md), so
//    nothing lands in docc's automatic groups.
// 2. Compiling examples: every ```swift block of the catalog must appear, line for line (leading
//    whitespace and blank lines ignored), in a file under Snippets/ (which `swift build` compiles)
//    or Tests/DocumentationExamplesTests/ (which `swift test` runs). A block preceded by a line
//    `<!-- not compiled: <reason> -->` (a manifest excerpt, Apple-only code) is exempt, and listed.
//
// Usage: check-docs MODULE CATALOG_DIR SYMBOL_GRAPH_DIR   (run from the package root)
import Foundation

struct Failure: Error, CustomStringConvertible {
    var description: String
}

func files(under path: String, extension ext: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
    return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".\(ext)") }.map { "\(path)/\($0)" }.sorted()
}

func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

/// The public, non-synthesized symbols of `module.symbols.json`, as path components.
func publicSymbols(module: String, graphDirectory: String) throws -> [(path: [String], kind: String)] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(graphDirectory)/\(module).symbols.json"))
    guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else { throw Failure(description: "\(module).symbols.json is not a symbol graph") }
    return symbols.compactMap { symbol in
        guard let access = symbol["accessLevel"] as? String, access == "public" || access == "open",
            let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
            !identifier.contains("::SYNTHESIZED::"),
            let path = symbol["pathComponents"] as? [String],
            let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String
        else { return nil }
        return (path, kind)
    }
}

/// A link's path components without the module prefix and docc's disambiguation suffixes
/// (`-swift.struct`, `-2k3j8`, `-(Int)`, `->Ticket<Void>`).
func normalize(_ link: String, module: String) -> [String] {
    var link = link.trimmingCharacters(in: .whitespaces)
    if link.hasPrefix("\(module)/") { link.removeFirst(module.count + 1) }
    let suffix = #/(-(swift\.[a-z.]+|[0-9a-z]{3,6}|\(.*\)|\[.*\])|->.*)$/#
    return link.split(separator: "/", omittingEmptySubsequences: false).map { part in
        String(part).replacing(suffix, with: "")
    }
}

/// The symbol links of a page's `## Topics` section (to the next level-2 heading or the end).
func topicLinks(_ text: String, module: String) -> Set<[String]> {
    var links = Set<[String]>()
    var inTopics = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("## ") {
            inTopics = line.trimmingCharacters(in: .whitespaces) == "## Topics"
            continue
        }
        guard inTopics else { continue }
        for match in line.matches(of: #/``([^`]+)``/#) {
            links.insert(normalize(String(match.1), module: module))
        }
    }
    return links
}

/// The ```swift blocks of a page: the line they start on, their lines, and an exemption reason.
func swiftBlocks(_ text: String) -> [(line: Int, lines: [String], exemption: String?)] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [(Int, [String], String?)] = []
    var index = 0
    while index < lines.count {
        guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
            index += 1
            continue
        }
        var exemption: String?
        var previous = index - 1
        while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
        if previous >= 0, let match = lines[previous].firstMatch(of: #/<!--\s*not compiled:\s*(.*?)\s*-->/#) {
            exemption = String(match.1)
        }
        let start = index + 1
        index += 1
        while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" { index += 1 }
        blocks.append((start + 1, Array(lines[start..<min(index, lines.count)]), exemption))
        index += 1
    }
    return blocks
}

func normalized<S: Sequence<String>>(_ lines: S) -> [String] {
    lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

func contains(_ haystack: [String], _ needle: [String]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
}

func check(module: String, catalog: String, graphDirectory: String) throws -> [String] {
    var problems: [String] = []
    let symbols = try publicSymbols(module: module, graphDirectory: graphDirectory)
    let pages = files(under: catalog, extension: "md")

    var curated = Set<[String]>()
    for page in pages {
        let text = try read(page)
        let links = topicLinks(text, module: module)
        curated.formUnion(links)
        // In Extensions/<Type>.md, links are relative to the type the page extends.
        if page.contains("/Extensions/"), let title = text.firstMatch(of: #/^#\s*``([^`]+)``/#) {
            let owner = normalize(String(title.1), module: module)
            curated.formUnion(links.map { owner + $0 })
        }
    }
    var reported = Set<[String]>()
    for (path, kind) in symbols where !curated.contains(path) && reported.insert(path).inserted {
        problems.append("\(module): \(path.joined(separator: "/")) (\(kind)) is in no `## Topics` section")
    }

    let sources =
        files(under: "Snippets", extension: "swift")
        + files(under: "Tests/DocumentationExamplesTests", extension: "swift")
    let compiled = try sources.map {
        normalized(try read($0).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
    for page in pages {
        for block in swiftBlocks(try read(page)) {
            if let exemption = block.exemption {
                print("check-docs: \(page):\(block.line): not compiled (\(exemption))")
                continue
            }
            let needle = normalized(block.lines)
            if !needle.isEmpty, !compiled.contains(where: { contains($0, needle) }) {
                problems.append(
                    "\(page):\(block.line): swift block is in no file under Snippets/ or Tests/DocumentationExamplesTests/"
                )
            }
        }
    }
    if problems.isEmpty {
        print("check-docs: \(module): \(Set(symbols.map(\.path)).count) public symbols curated, examples compiled")
    }
    return problems
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: check-docs MODULE CATALOG_DIR SYMBOL_GRAPH_DIR\n".utf8))
    exit(2)
}
do {
    let problems = try check(module: arguments[1], catalog: arguments[2], graphDirectory: arguments[3])
    for problem in problems {
        FileHandle.standardError.write(Data("check-docs: error: \(problem)\n".utf8))
    }
    exit(problems.isEmpty ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("check-docs: error: \(error)\n".utf8))
    exit(1)
}
