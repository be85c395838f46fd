import CChafa
import Platform

/// One chafa terminal description (`ChafaTermInfo`), owned and released here.
///
/// `@unchecked Sendable` because the term info is only read after `init`
/// (chafa's print and `have_seq` never modify it), and the reference count is
/// released once, in `deinit`.
final class ChafaTerminal: @unchecked Sendable {
    /// Which sequences the described terminal has.
    struct Capabilities: Equatable {
        var kitty = false
        var iterm = false
        var sixels = false
        var direct = false
        var indexed256 = false
        var indexed16 = false
        var indexed8 = false
        /// REP (repeat the last character).
        var repeats = false

        var bestColors: ColorDepth {
            if direct { return .truecolor }
            if indexed256 { return .indexed256 }
            if indexed16 { return .indexed16 }
            if indexed8 { return .indexed8 }
            return .monochrome
        }
    }

    let info: OpaquePointer

    /// The terminal chafa's database recognises from these variables.
    init(environment: [String: String]) {
        info = Self.detect(environment)
    }

    /// The detected terminal, supplemented with the sequences `graphics`
    /// needs. Without them chafa prints nothing for a pixel mode and drops
    /// colours it has no sequence for, so an explicit `--images kitty` on a
    /// terminal the database does not know must still get kitty's sequences.
    init(graphics: TerminalGraphics) {
        let info = Self.detect(graphics.terminalEnvironment)
        var reference = ["TERM": "xterm-256color"]
        switch graphics.mode {
        case .kitty: reference = ["TERM": "xterm-kitty"]
        case .iterm: reference["TERM_PROGRAM"] = "iTerm.app"
        case .sixels: reference = ["TERM": "mlterm"]
        case .auto, .none, .symbols: break
        }
        let supplement = Self.detect(reference)
        chafa_term_info_supplement(info, supplement)
        chafa_term_info_unref(supplement)
        self.info = info
    }

    deinit {
        chafa_term_info_unref(info)
    }

    var capabilities: Capabilities {
        Capabilities(
            kitty: has(CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1),
            iterm: has(CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE),
            sixels: has(CHAFA_TERM_SEQ_BEGIN_SIXELS),
            direct: has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT),
            indexed256: has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_256),
            indexed16: has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_16),
            indexed8: has(CHAFA_TERM_SEQ_SET_COLOR_FGBG_8),
            repeats: has(CHAFA_TERM_SEQ_REPEAT_CHAR))
    }

    private func has(_ sequence: ChafaTermSeq) -> Bool {
        chafa_term_info_have_seq(info, sequence) != 0
    }

    /// `chafa_term_db_detect` with a C `envp` built from `environment`.
    /// It never fails: unknown terminals get chafa's fallback description.
    private static func detect(_ environment: [String: String]) -> OpaquePointer {
        var entries: [UnsafeMutablePointer<CChar>?] = environment
            .sorted { $0.key < $1.key }
            .map { strdup("\($0.key)=\($0.value)") }
        entries.append(nil)
        defer { for entry in entries { free(entry) } }
        return entries.withUnsafeMutableBufferPointer { buffer in
            chafa_term_db_detect(chafa_term_db_get_default(), buffer.baseAddress)
        }
    }
}
