import Foundation

/// Finds SQL in Swift source text that is built from values: string literals that read as SQL and
/// interpolate something, or are joined with `+`.
///
/// A rough lexer, enough for this code base: it skips `//` comments, reads `"…"` and `"""…"""`
/// literals, and records each `\(…)` interpolation's expression (nested parentheses and quoted
/// strings inside it included).
struct SQLLiteralScanner {
    struct Literal {
        var text: String
        var interpolations: [String]
        var line: Int
        var isConcatenated: Bool
    }

    /// SQL statements start with one of these words, in capitals as this code base writes them.
    private static let sqlPattern = try! NSRegularExpression(
        pattern:
            #"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA|DROP|ALTER|SAVEPOINT|RELEASE|ROLLBACK|BEGIN|COMMIT|VACUUM|ATTACH|REPLACE)\b"#
    )

    static func isSQL(_ text: String) -> Bool {
        sqlPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Every string literal in `source` that reads as SQL.
    static func sqlLiterals(in source: String) -> [Literal] {
        literals(in: source).filter { isSQL($0.text) }
    }

    static func literals(in source: String) -> [Literal] {
        let chars = Array(source)
        var literals: [Literal] = []
        var i = 0
        var line = 1
        func peek(_ offset: Int) -> Character? { i + offset < chars.count ? chars[i + offset] : nil }
        while i < chars.count {
            let c = chars[i]
            if c == "\n" { line += 1; i += 1; continue }
            if c == "/", peek(1) == "/" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
                continue
            }
            guard c == "\"" else { i += 1; continue }
            let multiline = peek(1) == "\"" && peek(2) == "\""
            let startLine = line
            i += multiline ? 3 : 1
            var text = ""
            var interpolations: [String] = []
            while i < chars.count {
                let d = chars[i]
                if d == "\n" { line += 1 }
                if multiline, d == "\"", peek(1) == "\"", peek(2) == "\"" { i += 3; break }
                if !multiline, d == "\"" { i += 1; break }
                if d == "\\", peek(1) == "(" {
                    i += 2
                    var depth = 1
                    var expression = ""
                    var inString = false
                    while i < chars.count, depth > 0 {
                        let e = chars[i]
                        if e == "\"" { inString.toggle() }
                        if !inString, e == "(" { depth += 1 }
                        if !inString, e == ")" { depth -= 1 }
                        if depth > 0 { expression.append(e) }
                        i += 1
                    }
                    interpolations.append(expression.trimmingCharacters(in: .whitespaces))
                    text += "\\(…)"
                    continue
                }
                if d == "\\" { text.append(d); if let next = peek(1) { text.append(next) }; i += 2; continue }
                text.append(d)
                i += 1
            }
            var j = i
            while j < chars.count, chars[j] == " " { j += 1 }
            let concatenated = j < chars.count && chars[j] == "+" && (j + 1 < chars.count && chars[j + 1] != "=")
            literals.append(
                Literal(text: text, interpolations: interpolations, line: startLine, isConcatenated: concatenated))
        }
        return literals
    }
}
