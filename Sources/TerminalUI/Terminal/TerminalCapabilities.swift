import Platform

/// What the process's terminal can do, decided once at start-up from the
/// standard streams and the environment.
public struct TerminalCapabilities: Sendable, Equatable {
    /// stdin and stdout are terminals and TERM names a real one: use readline,
    /// escape sequences and images. False means plain line I/O.
    public var isTTY: Bool
    /// `NO_COLOR` is set to a non-empty value: print no colour escape codes.
    public var noColor: Bool
    /// The TERM variable, if set.
    public var term: String?

    public init(isTTY: Bool, noColor: Bool, term: String?) {
        self.isTTY = isTTY
        self.noColor = noColor
        self.term = term
    }

    /// Decides from the given streams and environment. `TERM` unset, empty or
    /// `dumb` counts as "not a terminal": such a terminal cannot take
    /// readline's cursor movement.
    public static func detect(
        environment: [String: String],
        stdinIsTTY: Bool,
        stdoutIsTTY: Bool
    ) -> TerminalCapabilities {
        let term = environment["TERM"]
        let usableTerm = Platform.usableTerm(environment)
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return TerminalCapabilities(isTTY: stdinIsTTY && stdoutIsTTY && usableTerm, noColor: noColor, term: term)
    }

    /// The capabilities of this process's stdin/stdout and environment.
    public static func current(environment: [String: String]) -> TerminalCapabilities {
        detect(
            environment: environment,
            stdinIsTTY: isatty(Platform.standardInput) == 1, stdoutIsTTY: isatty(Platform.standardOutput) == 1)
    }
}
