public import Observation

/// A control (a button, a toolbar item, a menu item) that sends an action to a weakly held target.
///
/// `ActionControl` is the Target-Action half of the Command pattern, written in Swift so it works
/// on every platform, Linux included. A control has a ``title``, an ``isEnabled`` state, a
/// *target* (held weakly, so a control never keeps its target alive) and an *action*: an unapplied
/// method reference of the target's type. ``sendAction()`` calls the action on the target, unless
/// the control is disabled or the target is gone.
///
/// ```swift
/// final class LibraryWindow {
///     let deleteButton = ActionControl(title: "Delete")
///     init() { deleteButton.setTarget(self, action: LibraryWindow.deleteSelection) }
///     func deleteSelection() { … }
/// }
/// window.deleteButton.sendAction()  // calls window.deleteSelection()
/// ```
///
/// Views that draw the control learn about changes of ``title`` and ``isEnabled`` with
/// ``addObserver(_:)``, or through Observation: the class is `@Observable`, so SwiftUI views and
/// `withObservationTracking` follow them without extra code.
///
/// - Important: `ActionControl` is not `Sendable`. It belongs to the one isolation domain that
///   creates it (typically the main actor, where user-interface code lives): create it, change it
///   and send its action from there.
@Observable
public final class ActionControl {
    /// A property of a control whose change observers are told about.
    public enum Property: Hashable, Sendable, CaseIterable {
        /// The control's ``ActionControl/title`` changed.
        case title
        /// The control's ``ActionControl/isEnabled`` state changed.
        case isEnabled
    }

    /// A token identifying an observer registered with ``ActionControl/addObserver(_:)``.
    ///
    /// Pass it to ``ActionControl/removeObserver(_:)`` to stop observing.
    public struct ObserverID: Hashable, Sendable {
        fileprivate let rawValue: Int
    }

    /// The text the control shows, such as "Undo Delete Album".
    ///
    /// Setting a different value tells the observers about ``Property/title``; setting the same
    /// value tells them nothing.
    public var title: String {
        didSet {
            if title != oldValue { notify(.title) }
        }
    }

    /// Whether the control reacts: a disabled control sends no action.
    ///
    /// Setting a different value tells the observers about ``Property/isEnabled``; setting the same
    /// value tells them nothing.
    public var isEnabled: Bool {
        didSet {
            if isEnabled != oldValue { notify(.isEnabled) }
        }
    }

    /// The object the action is sent to, or `nil` when there is none or it has been deallocated.
    ///
    /// The control holds its target weakly.
    public var target: AnyObject? { weakTarget }

    /// Called when an action set with a throwing method throws during ``sendAction()``.
    ///
    /// A control sits at the edge of an application, where nobody is left to catch an error: tell
    /// the user here (a status line, an alert). Without a handler, the error is dropped;
    /// ``sendAction()`` returns `true` either way, since the action was sent.
    ///
    /// ```swift
    /// undoButton.setTarget(stack, action: UndoStack.undo)  // func undo() throws
    /// undoButton.errorHandler = { [weak status] control, error in
    ///     status?.show("\(control.title) failed: \(error)")
    /// }
    /// ```
    @ObservationIgnored public var errorHandler: ((ActionControl, any Error) -> Void)?

    @ObservationIgnored private weak var weakTarget: AnyObject?
    // Sends the action to the (weakly captured) target; returns false when the target is gone.
    @ObservationIgnored private var send: ((ActionControl) throws -> Bool)?
    @ObservationIgnored private var observers: [(id: ObserverID, handler: (ActionControl, Property) -> Void)] = []
    @ObservationIgnored private var nextObserverID = 0

    /// Creates a control with a title and an enabled state, and no target.
    ///
    /// - Parameters:
    ///   - title: The text the control shows.
    ///   - isEnabled: Whether the control starts enabled. The default is `true`.
    public init(title: String, isEnabled: Bool = true) {
        self.title = title
        self.isEnabled = isEnabled
    }

    /// Sets the target and an action that takes no argument.
    ///
    /// The control holds `target` weakly and `action`, an unapplied method reference such as
    /// `LibraryWindow.deleteSelection`, strongly. It replaces any previous target and action.
    ///
    /// - Parameters:
    ///   - target: The object to send the action to.
    ///   - action: The method to call on `target`.
    public func setTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target) -> () -> Void) {
        weakTarget = target
        send = { [weak target] _ in
            guard let target else { return false }
            action(target)()
            return true
        }
    }

    /// Sets the target and an action that receives the control that sent it (the *sender*).
    ///
    /// Use this form when one method serves several controls and needs to know which one fired.
    /// The control holds `target` weakly. It replaces any previous target and action.
    ///
    /// ```swift
    /// button.setTarget(window, action: LibraryWindow.buttonPressed)  // func buttonPressed(_ sender: ActionControl)
    /// ```
    ///
    /// - Parameters:
    ///   - target: The object to send the action to.
    ///   - action: The method to call on `target` with the sending control.
    public func setTarget<Target: AnyObject>(
        _ target: Target,
        action: @escaping (Target) -> (ActionControl) -> Void
    ) {
        weakTarget = target
        send = { [weak target] sender in
            guard let target else { return false }
            action(target)(sender)
            return true
        }
    }

    /// Sets the target and an action that may throw, such as `UndoStack.undo`.
    ///
    /// An error the action throws goes to ``errorHandler``. The control holds `target` weakly. It
    /// replaces any previous target and action.
    ///
    /// - Parameters:
    ///   - target: The object to send the action to.
    ///   - action: The throwing method to call on `target`.
    public func setTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target) -> () throws -> Void) {
        weakTarget = target
        send = { [weak target] _ in
            guard let target else { return false }
            try action(target)()
            return true
        }
    }

    /// Sets the target and an action that receives the sending control and may throw.
    ///
    /// An error the action throws goes to ``errorHandler``. The control holds `target` weakly. It
    /// replaces any previous target and action.
    ///
    /// - Parameters:
    ///   - target: The object to send the action to.
    ///   - action: The throwing method to call on `target` with the sending control.
    public func setTarget<Target: AnyObject>(
        _ target: Target,
        action: @escaping (Target) -> (ActionControl) throws -> Void
    ) {
        weakTarget = target
        send = { [weak target] sender in
            guard let target else { return false }
            try action(target)(sender)
            return true
        }
    }

    /// Removes the target and the action; the control then sends nothing.
    public func removeTarget() {
        weakTarget = nil
        send = nil
    }

    /// Sends the action to the target, as a click on the control does.
    ///
    /// Nothing is sent while the control is disabled, when it has no target, or when its target has
    /// been deallocated. If the action throws, the error goes to ``errorHandler``.
    ///
    /// - Returns: `true` if the action was sent (even if it threw), `false` if nothing was sent.
    @discardableResult
    public func sendAction() -> Bool {
        guard isEnabled, let send else { return false }
        do {
            return try send(self)
        } catch {
            errorHandler?(self, error)
            return true
        }
    }

    /// Registers a handler called after ``title`` or ``isEnabled`` changes.
    ///
    /// Handlers run synchronously, in registration order, in the isolation domain that changed the
    /// property. The control holds `handler` strongly: capture the control (and anything that
    /// holds it) weakly inside it to avoid a retain cycle.
    ///
    /// ```swift
    /// let id = undoButton.addObserver { [weak view] control, property in
    ///     view?.redraw(control)
    /// }
    /// ```
    ///
    /// - Parameter handler: Called with the control and the property that changed.
    /// - Returns: A token to pass to ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping (ActionControl, Property) -> Void) -> ObserverID {
        let id = ObserverID(rawValue: nextObserverID)
        nextObserverID += 1
        observers.append((id, handler))
        return id
    }

    /// Removes an observer registered with ``addObserver(_:)``.
    ///
    /// Removing an observer that is already gone does nothing.
    ///
    /// - Parameter id: The token ``addObserver(_:)`` returned.
    public func removeObserver(_ id: ObserverID) {
        observers.removeAll { $0.id == id }
    }

    private func notify(_ property: Property) {
        // Iterate over a copy: a handler may add or remove observers.
        for observer in observers {
            observer.handler(self, property)
        }
    }
}

// Owned by one isolation domain; see the type's documentation.
@available(*, unavailable)
extension ActionControl: Sendable {}
