import Foundation

/// Escape sequences of kitty's terminal graphics protocol, built as text.
///
/// Every sequence is an APC string, `ESC _ G <keys> ; <payload> ESC \`.
/// Commands that the app sends while the person works carry `q=2`, so the
/// terminal never answers them: an answer would arrive on stdin and show up
/// at the prompt as typed garbage.
enum KittyCommand {
    /// Largest base64 payload in one escape code, as the protocol requires.
    static let chunkSize = 4096

    /// How the pixel payload is encoded.
    enum Format: Int, Sendable {
        /// 3 bytes per pixel.
        case rgb = 24
        /// 4 bytes per pixel.
        case rgba = 32
        /// A PNG file.
        case png = 100
    }

    /// What the terminal does with a transmitted image.
    enum Display: Sendable, Equatable {
        /// Store only (`a=t`); placements follow as separate commands.
        case none
        /// Store and create a virtual placement of `columns × rows` cells for
        /// Unicode placeholders (`a=T,U=1`), which is how images show inside tmux.
        case virtualPlacement(columns: Int, rows: Int)
    }

    /// The escape codes that send one image to the terminal, in order: the
    /// base64 payload split into chunks of at most `chunkSize` bytes, the
    /// first carrying every key, the rest only `m` (and `q`), `m=1` on all
    /// but the last.
    static func transmit(
        id: UInt32, format: Format, width: Int, height: Int,
        payload: [UInt8], compressed: Bool, display: Display = .none
    ) -> [String] {
        var keys: [String]
        switch display {
        case .none:
            keys = ["a=t"]
        case .virtualPlacement(let columns, let rows):
            keys = ["a=T", "U=1", "c=\(columns)", "r=\(rows)"]
        }
        keys += ["i=\(id)", "f=\(format.rawValue)"]
        if format != .png {
            keys += ["s=\(width)", "v=\(height)"]
        } else if compressed {
            keys.append("S=\(payload.count)")
        }
        if compressed { keys.append("o=z") }
        keys.append("q=2")

        let encoded = Array(Data(payload).base64EncodedString().utf8)
        var chunks: [String] = []
        var start = 0
        repeat {
            let end = min(start + chunkSize, encoded.count)
            let more = end < encoded.count
            let control = (chunks.isEmpty ? keys + ["m=\(more ? 1 : 0)"] : ["m=\(more ? 1 : 0)", "q=2"])
                .joined(separator: ",")
            let chunk = String(decoding: encoded[start..<end], as: UTF8.self)
            chunks.append(apc(control + ";" + chunk))
            start = end
        } while start < encoded.count
        return chunks
    }

    /// Shows image `id` at the cursor, scaled into `columns × rows` cells,
    /// leaving the cursor where it was (`C=1`). No placement id, so showing
    /// the same image again adds a placement instead of moving the old one.
    static func place(id: UInt32, columns: Int, rows: Int) -> String {
        apc("a=p,i=\(id),c=\(columns),r=\(rows),C=1,q=2")
    }

    /// Deletes image `id`: its placements and, unless the terminal still
    /// needs it elsewhere, its data (`d=I`).
    static func delete(id: UInt32) -> String {
        apc("a=d,d=I,i=\(id),q=2")
    }

    /// Asks whether the terminal speaks the protocol: a one-pixel image that
    /// is loaded but not stored (`a=q`). A terminal that does answers
    /// `ESC _ G i=<id> ; OK ESC \`; others ignore the APC string.
    static func query(id: UInt32) -> String {
        apc("i=\(id),s=1,v=1,a=q,t=d,f=24;AAAA")
    }

    /// The same query carrying `U=1`: only a terminal that draws Unicode
    /// placeholders (kitty 0.28 and later) answers it with OK; kitty 0.26
    /// rejects the key and says nothing, although it answers `query`.
    static func placeholderQuery(id: UInt32) -> String {
        apc("i=\(id),s=1,v=1,a=q,t=d,f=24,U=1;AAAA")
    }

    /// `sequence` wrapped for tmux's passthrough (`allow-passthrough on`):
    /// a DCS string addressed to tmux with every ESC inside doubled, which
    /// tmux forwards unchanged to the terminal it runs in.
    static func tmuxPassthrough(_ sequence: String) -> String {
        "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\"
    }

    private static func apc(_ body: String) -> String {
        "\u{1B}_G" + body + "\u{1B}\\"
    }
}
