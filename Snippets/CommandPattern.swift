// The Command pattern's four roles with CommandKit: the two examples of
// "The Command Pattern in Swift" (CommandKit.docc/Articles/CommandPattern.md).
import CommandKit

// MARK: 1. A bloated app delegate, split into commands

// Receivers: the SDKs an app configures at launch (stand-ins for Firebase and OneSignal).
enum CrashReporter {
    static func configure() { print("crash reporter configured") }
}

enum PushService {
    static func initialize(launchOptions: [String: String], appID: String) {
        print("push service \(appID) started with \(launchOptions)")
    }
}

// Commands: one responsibility each, behind one `execute()`.
struct CrashReporterCommand: Command {
    func execute() { CrashReporter.configure() }
}

struct PushServiceCommand: Command {
    let launchOptions: [String: String]
    func execute() { PushService.initialize(launchOptions: launchOptions, appID: "App_Id") }
}

// The client (the app's entry point) builds the invoker; the invoker runs the commands.
func applicationDidFinishLaunching(launchOptions: [String: String]) async -> Bool {
    let appInvoker = Invoker(commands: [
        CrashReporterCommand(),
        PushServiceCommand(launchOptions: launchOptions),
    ])
    let report = await appInvoker.run()
    print(report)  // #0 CrashReporterCommand: succeeded …
    return report.isSuccess
}

_ = await applicationDidFinishLaunching(launchOptions: ["source": "cli"])

// The same list written with CommandBuilder: `if` and `for` are allowed.
struct LaunchSettings {
    var pushEnabled = true
    var values: [String: String] = [:]
}
let options = LaunchSettings()
let invoker = Invoker(failurePolicy: .continueAfterFailure) {
    CrashReporterCommand()
    if options.pushEnabled { PushServiceCommand(launchOptions: options.values) }
}
print(await invoker.run().isSuccess)  // true

// MARK: 2. An album library whose Delete is undone by an invocation

// The receiver does the work.
final class LibraryAPI {
    private(set) var albums: [String]
    init(albums: [String]) { self.albums = albums }

    func addAlbum(_ album: String, at index: Int) { albums.insert(album, at: index) }
    func deleteAlbum(at index: Int) -> String { albums.remove(at: index) }
}

// The client wires two controls (the toolbar's buttons) to its own methods.
final class AlbumsController {
    let library: LibraryAPI
    let undoButton = ActionControl(title: "Undo", isEnabled: false)
    let deleteButton = ActionControl(title: "Delete")
    var currentAlbumIndex = 0
    private var undoStack: [AnyInvocation] = []

    init(library: LibraryAPI) {
        self.library = library
        undoButton.setTarget(self, action: AlbumsController.undoAction)
        deleteButton.setTarget(self, action: AlbumsController.deleteAlbum)
    }

    func deleteAlbum() {
        let deletedAlbum = library.deleteAlbum(at: currentAlbumIndex)
        // The call that puts the album back, as a value: target, method, arguments.
        let undoAction = Invocation(
            target: library, method: LibraryAPI.addAlbum(_:at:), arguments: (deletedAlbum, currentAlbumIndex))
        undoStack.append(AnyInvocation(undoAction))
        undoButton.isEnabled = true
    }

    func undoAction() throws {
        try undoStack.popLast()?.invoke()
        undoButton.isEnabled = !undoStack.isEmpty
    }
}

let controller = AlbumsController(library: LibraryAPI(albums: ["Abbey Road", "Blue", "Kind of Blue"]))
controller.currentAlbumIndex = 1
controller.deleteButton.sendAction()  // the user taps Delete: "Blue" is gone, Undo is enabled
controller.undoButton.sendAction()  // the user taps Undo: "Blue" is back at 1, Undo is disabled
print(controller.library.albums, controller.undoButton.isEnabled)  // ["Abbey Road", "Blue", "Kind of Blue"] false
