import CNcursesw
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signal that asked the terminal UI to stop (SIGINT or SIGTERM), 0 while none has.
///
/// Written by the signal handler, read by the input loop between key presses: an atomic is
/// async-signal-safe, and the loop, not the handler, restores the terminal.
let terminationSignal = Atomic<Int32>(0)

/// The curses screen: starts and restores the terminal, draws ``BrowserScreen`` lines, reads keys.
///
/// The only type that calls ncursesw. It owns the screen between ``start()`` and ``stop()``;
/// ``stop()`` is idempotent and must run on every exit path (the caller defers it).
final class CursesTerminal {
    // ncurses attribute bits (NCURSES_BITS(mask, shift) with NCURSES_ATTR_SHIFT 8): C macros
    // that Swift does not import.
    private static let attributeReverse: Int32 = 1 << 18
    private static let attributeDim: Int32 = 1 << 20
    private static let attributeBold: Int32 = 1 << 21

    private var window: UnsafeMutablePointer<WINDOW>?

    /// How long ``readKey()`` waits before returning `nil`, so the loop can see signals.
    static let pollMilliseconds: Int32 = 100

    /// Takes over the terminal: UTF-8 locale, raw keys, no echo, hidden cursor.
    func start() throws {
        Self.chooseUTF8Locale()
        // Checked first: on a terminal it cannot use, initscr prints its own message and exits.
        if let reason = Self.unusableTerminalReason(term: getenv("TERM").map { String(cString: $0) }) {
            throw TerminalError(
                "the terminal UI cannot run here: \(reason); the commands need no terminal (albums list, "
                    + "albums --help)")
        }
        guard let screen = initscr() else {
            throw TerminalError("cannot start the terminal UI (is TERM set?)")
        }
        window = screen
        cbreak()
        noecho()
        nonl()
        keypad(screen, true)
        _ = curs_set(0)
        wtimeout(screen, Self.pollMilliseconds)
        // Escape arrives alone quickly instead of waiting a second for a sequence.
        set_escdelay(25)
    }

    /// Why the terminal UI cannot draw on the terminal `term` names, or `nil` when it can: the
    /// type must be set, known to terminfo, and able to move the cursor (`TERM=dumb` is not).
    static func unusableTerminalReason(term: String?) -> String? {
        guard let term, !term.isEmpty else { return "TERM is not set" }
        var error: Int32 = 0
        // With an error pointer, setupterm reports instead of printing and exiting.
        guard setupterm(term, STDOUT_FILENO, &error) == OK else {
            return "the terminal type “\(DisplayText.sanitized(term))” is unknown (no terminfo entry)"
        }
        defer { albums_free_checked_terminal() }
        guard let move = tigetstr("cup"), Int(bitPattern: move) != -1 else {
            return "the terminal type “\(DisplayText.sanitized(term))” cannot move the cursor"
        }
        return nil
    }

    /// Gives the terminal back as it was. Safe to call more than once.
    func stop() {
        guard window != nil else { return }
        window = nil
        endwin()
    }

    deinit {
        stop()
    }

    /// The terminal's size.
    var size: (width: Int, height: Int) {
        guard let window else { return (0, 0) }
        return (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Replaces the screen's contents with `lines`.
    func draw(_ lines: [BrowserScreen.Line]) {
        guard let window else { return }
        werase(window)
        for (row, line) in lines.enumerated() {
            wmove(window, Int32(row), 0)
            for span in line {
                wattrset(window, Self.attribute(span.style))
                waddstr(window, span.text)
            }
        }
        wattrset(window, 0)
        wrefresh(window)
    }

    /// Waits up to ``pollMilliseconds`` for a key.
    ///
    /// - Returns: The key, or `nil` when none came (or it is one the UI ignores).
    func readKey() -> KeyInput? {
        guard let window else { return nil }
        var character: wint_t = 0
        let result = wget_wch(window, &character)
        if result == KEY_CODE_YES {
            switch Int32(character) {
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_ENTER: return .enter
            case KEY_BACKSPACE, KEY_DC: return .backspace
            case KEY_RESIZE: return .resize
            case KEY_BTAB: return .up
            // The keypad's corners, and Find / Select: what tmux's `ESC [1~` and `ESC [4~` decode
            // to under xterm's terminal description.
            case KEY_HOME, KEY_A1, KEY_FIND: return .home
            case KEY_END, KEY_C1, KEY_SELECT: return .end
            case KEY_PPAGE, KEY_A3: return .pageUp
            case KEY_NPAGE, KEY_C3: return .pageDown
            default: return nil
            }
        }
        guard result == OK, let scalar = Unicode.Scalar(UInt32(character)) else { return nil }
        switch scalar.value {
        case 0x0A, 0x0D: return .enter
        case 0x09: return .tab
        case 0x1B: return readEscapeSequence(window)
        case 0x08, 0x7F: return .backspace
        case 0x00..<0x20: return nil
        default: return .character(Character(scalar))
        }
    }

    /// After an escape character: the key of a sequence curses left undecoded, or Escape itself
    /// when nothing follows at once (a sequence's bytes arrive together; a person's next key does not).
    private func readEscapeSequence(_ window: UnsafeMutablePointer<WINDOW>) -> KeyInput? {
        wtimeout(window, 0)
        defer { wtimeout(window, Self.pollMilliseconds) }
        var tail = ""
        while KeySequence.isIncomplete(tail) {
            var character: wint_t = 0
            guard wget_wch(window, &character) == OK, let scalar = Unicode.Scalar(UInt32(character)) else { break }
            tail.unicodeScalars.append(scalar)
        }
        // An unknown sequence is dropped whole rather than read as Escape and letters.
        return tail.isEmpty ? .escape : KeySequence.key(after: tail)
    }

    private static func attribute(_ style: BrowserScreen.Style) -> Int32 {
        switch style {
        case .normal: 0
        case .bold: attributeBold
        case .highlight: attributeReverse | attributeBold
        case .dim: attributeDim
        }
    }

    /// Uses the environment's locale, falling back to C.UTF-8 so curly quotes and box lines draw.
    private static func chooseUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().filter({ $0 != "-" }) != "UTF8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// Routes SIGINT, SIGTERM and SIGHUP to ``terminationSignal`` so the input loop ends and
    /// restores the terminal. Installed before `initscr`, which then leaves them alone.
    ///
    /// Call it on the thread that runs the input loop (the main thread): it also unblocks the
    /// three signals there, because a parent may have started us with them blocked (a test
    /// runner's worker thread passes its mask on through `tmux` to us).
    static func installSignalHandlers() {
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                terminationSignal.store(received, ordering: .relaxed)
            }
            sigaddset(&unblocked, signalNumber)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }
}

@available(*, unavailable, message: "The curses screen belongs to the thread that started it.")
extension CursesTerminal: Sendable {}

/// The terminal UI could not start or run.
struct TerminalError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
