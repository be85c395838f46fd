import Foundation

/// Turns text from a server or a template into a file name every common file
/// system accepts (ext4, APFS, NTFS, exFAT, FAT32) and no shell or terminal
/// misreads: no path separators, NUL or control characters, none of
/// Windows' reserved characters or device names, no trailing dots or spaces,
/// and at most `maxBytes` UTF-8 bytes.
///
/// `maxBytes` is below the usual 255-byte limit so that a collision number
/// (` (12)`), an extension (`.json`, `.webp`) and the atomic writer's
/// temporary name (`.NAME.PID.RANDOM.part`) still fit.
enum SafeFileName {
    static let maxBytes = 200

    /// `text` made safe; `fallback` (itself made safe, else `unknown`) when
    /// nothing is left.
    static func make(_ text: String, fallback: String) -> String {
        let name = clean(text)
        if !name.isEmpty { return name }
        let other = clean(fallback)
        return other.isEmpty ? "unknown" : other
    }

    private static func clean(_ text: String) -> String {
        // One spelling per name: the same title always gives the same bytes,
        // whichever normalisation the server sent.
        var scalars = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars where !isInvisible(scalar) {
            scalars.append(isRefused(scalar) ? "_" : scalar)
        }
        var name = trimmed(String(scalars))
        name = fitted(name, bytes: maxBytes)
        name = trimmed(name)
        if isReservedOnWindows(name) {
            // After the device name, before any extension: `CON.txt` → `CON_.txt`.
            let stemEnd = name.firstIndex(of: ".") ?? name.endIndex
            name.insert("_", at: stemEnd)
        }
        return name
    }

    /// Path separators, Windows' reserved characters, and what `isHidden` finds.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        isHidden(scalar) || "/\\<>:\"|?*".unicodeScalars.contains(scalar)
    }

    /// Control characters and the marks that reorder text in a terminal:
    /// each leaves a `_`, so words they separated stay apart.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: isInvisible(scalar)
        }
    }

    /// Zero-width and tag characters and non-characters: dropped, as a
    /// name that looks like another must not be another (an emoji sequence
    /// joined by U+200D falls apart into its emoji, which still show).
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200D, 0x2060...0x2065, 0xFEFF, 0xE0000...0xE007F, 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }

    /// No leading or trailing whitespace; no leading dot (a hidden file,
    /// or `..`) and no trailing dot (Windows drops it).
    private static func trimmed(_ text: String) -> String {
        var characters = Substring(text)
        while let first = characters.first, first.isWhitespace || first == "." { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace || last == "." { characters.removeLast() }
        return String(characters)
    }

    /// The longest prefix of whole characters within `bytes` UTF-8 bytes.
    static func fitted(_ text: String, bytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            result.append(character)
            used += size
        }
        return result
    }

    /// CON, PRN, AUX, NUL, COM1–9 and LPT1–9 name devices on Windows,
    /// whatever the case and whatever extension follows.
    static func isReservedOnWindows(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let upper = stem.trimmingCharacters(in: .whitespaces).uppercased()
        if ["CON", "PRN", "AUX", "NUL"].contains(upper) { return true }
        guard upper.count == 4, upper.hasPrefix("COM") || upper.hasPrefix("LPT"), let digit = upper.last else { return false }
        return ("1"..."9").contains(digit) || ["¹", "²", "³"].contains(digit)
    }

    /// What a person typed, for an error message: in quotes, at most 80
    /// bytes, control characters shown as `?`.
    static func quoted(_ text: String) -> String {
        let shown = String(String.UnicodeScalarView(text.unicodeScalars.map { isHidden($0) ? "?" : $0 }))
        return "“" + fitted(shown, bytes: 80) + "”"
    }
}
