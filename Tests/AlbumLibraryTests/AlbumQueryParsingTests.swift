import AlbumLibrary
import Testing

/// The query language read into expressions, written back, and refused in one line.
@Suite struct AlbumQueryParsingTests {
    private func parse(_ text: String) throws -> AlbumQuery.Expression? {
        try AlbumQuery.parse(text)?.expression
    }

    @Test func termsSideBySideMustAllMatch() throws {
        #expect(
            try parse("artist:radiohead year:1990..1999 sun")
                == .all([
                    .term(.text(.artist, "radiohead")), .term(.years(from: 1990, through: 1999)), .term(.words("sun")),
                ]))
        #expect(try parse("  ") == nil)
        #expect(try parse("sun") == .term(.words("sun")))
    }

    @Test func yearsAndRanges() throws {
        #expect(try parse("year:1999") == .term(.years(from: 1999, through: 1999)))
        #expect(try parse("year:..1970") == .term(.years(from: nil, through: 1970)))
        #expect(try parse("year:2000..") == .term(.years(from: 2000, through: nil)))
        #expect(try parse("year:1990..1990") == .term(.years(from: 1990, through: 1990)))
    }

    @Test func negationAlternativesAndPatterns() throws {
        #expect(try parse("-live") == .not(.term(.words("live"))))
        #expect(try parse("^genre:pop") == .not(.term(.text(.genre, "pop"))))
        #expect(
            try parse("a b , c OR d")
                == .any([.all([.term(.words("a")), .term(.words("b"))]), .term(.words("c")), .term(.words("d"))]))
        #expect(try parse("title::^Best.*e$") == .term(.pattern(.title, "^Best.*e$")))
        #expect(try parse("id:3f2a") == .term(.idPrefix("3F2A")))
    }

    @Test func quotesAndBackslashesKeepSyntaxLiteral() throws {
        #expect(
            try parse(#""dark side" title:"au lait, no""#)
                == .all([.term(.words("dark side")), .term(.text(.title, "au lait, no"))]))
        #expect(try parse(#""Live: 1999""#) == .term(.words("Live: 1999")))
        #expect(
            try parse(#""-ism" "OR" ",""#) == .all([.term(.words("-ism")), .term(.words("OR")), .term(.words(","))]))
        #expect(try parse(#"say\ \"hi\""#) == .term(.words(#"say "hi""#)))
        #expect(try parse(#"back\\slash"#) == .term(.words(#"back\slash"#)))
        // A combining accent after a quote is still after a quote.
        #expect(try parse("\"\u{301}x\"") == .term(.words("\u{301}x")))
    }

    @Test func commandLineWordsKeepTheirWhiteSpace() throws {
        #expect(
            try AlbumQuery.parse(words: ["dark side", "artist:Pink Floyd"])?.expression
                == .all([.term(.words("dark side")), .term(.text(.artist, "Pink Floyd"))]))
        #expect(try AlbumQuery.parse(words: []) == nil)
    }

    @Test(arguments: [
        "sun", "artist:bowie year:1970..1979 -live", "a , b c OR d", #""dark side""#, #"title:":x""#,
        #"title::"\\d{4} x""#, "-\"-ism\"", "year:..1970 year:2000.. year:1999", "id:3F2A", "\"a:b\"",
        #""say \"hi\"""#, "\"\u{301}\"",
    ])
    func theDescriptionReadsBackAsTheSameQuery(text: String) throws {
        guard let query = try AlbumQuery.parse(text) else { return }
        #expect(try AlbumQuery.parse(query.description) == query, "\(query.description)")
    }

    @Test(arguments: [
        (#""unbalanced"#, "unbalanced quote"),
        ("foo:bar", "unknown field ‘foo’"),
        ("year:1999..1990", "1999 is after 1990"),
        ("year:..", "bad year range"),
        ("year:19x9", "bad year"),
        ("year:0", "bad year"),
        ("year:10000", "bad year"),
        ("title::(", "bad regular expression"),
        ("title:", "needs a value"),
        ("OR sun", "needs a term before it"),
        ("sun ,", "needs a term after it"),
        ("sun , , moon", "needs a term before it"),
        ("-", "needs a term after it"),
        (#""""#, "empty phrase"),
        ("id:xyz", "bad id"),
        (#"trailing\"#, "backslash ends the query"),
    ])
    func hostileQueriesAreRefusedInOneLine(text: String, words: String) {
        #expect {
            try AlbumQuery.parse(text)
        } throws: { error in
            guard let error = error as? LibraryError else { return false }
            return error.code == .invalidQuery && error.message.contains(words) && !error.message.contains("\n")
        }
    }

    @Test func aQueryHoldsAtMostAHundredTerms() throws {
        let words = (0...AlbumQuery.maximumTerms).map { "w\($0)" }
        #expect(throws: LibraryError.self) { try AlbumQuery.parse(words.joined(separator: " ")) }
        #expect(try AlbumQuery.parse(words.dropLast().joined(separator: " ")) != nil)
    }
}
