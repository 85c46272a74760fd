/// How `albums serve` listens and whom it lets in.
public struct ServerConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` unless the user names another.
    public var host: String
    /// The port; 0 lets the system choose one (the URL printed names it).
    public var port: Int
    /// The secret every request must carry (a bearer header, or the cookie the page's first load
    /// sets); `nil` only on a loopback address.
    public var token: String?
    /// The author recorded with the changes of a request that names none.
    public var defaultAuthor: String
    /// Checks an author name a request gives, as `--author` is checked: the name trimmed, or the
    /// one-line refusal.
    public var checkAuthor: @Sendable (String) -> Result<String, ServerRefusal>
    /// The largest request body accepted, in bytes.
    public var maximumBodyBytes: Int
    /// The most event streams open at once (256 unless set, at least 1): a page holds one, and
    /// each holds a connection, a descriptor and a buffer; one more is refused with 503.
    public var maximumEventStreams: Int {
        get { streamLimit }
        set { streamLimit = max(newValue, 1) }
    }
    private var streamLimit = 256
    /// How long the server waits for requests in progress when it is asked to stop.
    public var drainTimeLimit: Duration
    /// How often each event stream gets a heartbeat (15 seconds; the tests ask for less, through
    /// `albums`'s `ALBUMS_TEST_EVENT_HEARTBEAT_MS`), at least a millisecond.
    public var heartbeatInterval: Duration {
        get { heartbeat }
        set { heartbeat = max(newValue, .milliseconds(1)) }
    }
    private var heartbeat = Duration.seconds(15)

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port, 0 for any.
    ///   - token: The secret requests must carry; required unless `host` is a loopback address.
    ///   - defaultAuthor: The author of changes whose request names none.
    ///   - checkAuthor: How a request's author name is checked.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        token: String? = nil,
        defaultAuthor: String,
        checkAuthor: @escaping @Sendable (String) -> Result<String, ServerRefusal>
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.defaultAuthor = defaultAuthor
        self.checkAuthor = checkAuthor
        self.maximumBodyBytes = 1 << 20
        self.drainTimeLimit = .seconds(5)
    }

    /// Whether `host` reaches this machine only (127.0.0.0/8, `::1`, `localhost`).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Whether `host` is a wildcard address (every interface).
    static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::" || host == "[::]"
    }

    /// A new random token: 32 hexadecimal digits (128 bits).
    public static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}

/// A request refused with one line for people (an author name that is not one, say).
public struct ServerRefusal: Error, Sendable, Hashable {
    /// The line.
    public var message: String

    /// Creates a refusal.
    ///
    /// - Parameter message: One line saying what is wrong.
    public init(_ message: String) {
        self.message = message
    }
}
