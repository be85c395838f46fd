@preconcurrency import CReadline
import Foundation

/// The live line: one row under the line being typed that shows what a
/// search for the text so far found, redrawn between keystrokes without
/// taking the cursor out of the edited line for longer than one write.
///
/// It is drawn relative to readline's cursor: index (`ESC D`) down past the
/// line's last row, so a prompt on the bottom row scrolls up and leaves a
/// row free, come back up, then save the cursor, write the row, and
/// restore it. Readline's record of the cursor stays true, so its own
/// redisplay, history, completion and Ctrl-R work as before. Before readline
/// moves the cursor (keys, output above the prompt) the row is erased the
/// same way, and drawn again afterwards.
extension ReadlineTerminal {
    public func setLiveLine(_ text: String?) {
        let cleaned = text.map { TextSanitizer.sanitize($0) }.flatMap { $0.isEmpty ? nil : $0 }
        guard cleaned != liveLine else { return }
        guard phase == .reading else {
            liveLine = cleaned
            return
        }
        eraseLiveLine()
        liveLine = cleaned
        drawLiveLine()
        output?.flush()
    }

    /// Rows between the cursor and the row under the edited line's last one.
    private var rowsToLiveLine: Int {
        max(1, Int(_rl_vis_botlin) - Int(_rl_last_v_pos) + 1)
    }

    /// Draws the live line under the edited line, if there is one to show.
    func drawLiveLine() {
        guard phase == .reading, liveLineDrawnBelow == nil, let liveLine, let output else { return }
        let below = rowsToLiveLine
        let text = TextSanitizer.fit(liveLine, columns: max(1, size.columns - 1))
        output.write(
            String(repeating: "\u{1B}D", count: below) + "\u{1B}[\(below)A"
                + "\u{1B}7\u{1B}[\(below)B\r\u{1B}[2m" + text + "\u{1B}[0m\u{1B}[K\u{1B}8")
        liveLineDrawnBelow = below
    }

    /// Erases the live line where it was drawn; the cursor must not have
    /// moved since.
    func eraseLiveLine() {
        guard let below = liveLineDrawnBelow, let output else { return }
        liveLineDrawnBelow = nil
        output.write("\u{1B}7\u{1B}[\(below)B\r\u{1B}[K\u{1B}8")
    }

    /// The text being typed now.
    var currentLine: String {
        guard let buffer = rl_line_buffer, rl_end > 0 else { return "" }
        return String(cString: buffer)
    }

    /// Reports the typed text when keys changed it (nothing while the line
    /// is over the limit); not while Ctrl-R
    /// searches history (the line then shows a match, not what is typed).
    func reportEdit() {
        guard phase == .reading, rl_readline_state & UInt(RL_STATE_ISEARCH) == 0 else { return }
        // A line over the limit is refused on Enter: it is never searched.
        let text = overlongLineBytes == nil ? currentLine : ""
        guard text != reportedLine else { return }
        reportedLine = text
        handlers.onEdit(text)
    }
}
