/// What a terminal shows after reading some output: a grid of cells, each a
/// character with the colours it was drawn in. Small on purpose: it knows
/// what the grid writes (SGR colours, REP, CR, LF, cursor moves and
/// save/restore) and records anything else as not understood, so a test
/// comparing two screens cannot pass by ignoring what it did not read.
struct RenderScreenModel: Equatable {
    enum Colour: Equatable, CustomStringConvertible {
        case rgb(Int, Int, Int)
        case indexed(Int)

        var description: String {
            switch self {
            case .rgb(let red, let green, let blue): "rgb(\(red),\(green),\(blue))"
            case .indexed(let index): "#\(index)"
            }
        }
    }

    /// One cell as it looks: a space shows only its background and a full
    /// block only its foreground, so those colours are dropped.
    struct Cell: Equatable, CustomStringConvertible {
        var character: Character
        var foreground: Colour?
        var background: Colour?
        var inverse = false

        var description: String {
            "\(character) fg \(foreground?.description ?? "-") bg \(background?.description ?? "-")\(inverse ? " inv" : "")"
        }
    }

    private(set) var rows: [[Cell?]] = []
    private(set) var notUnderstood: [String] = []
    /// Cells written past `columns` (the line would wrap).
    private(set) var overflows = 0
    let columns: Int

    private var row = 0
    private var column = 0
    private var saved = (row: 0, column: 0)
    private var foreground: Colour?
    private var background: Colour?
    private var inverse = false
    private var last: Character?

    init(columns: Int) {
        self.columns = columns
    }

    static func == (lhs: RenderScreenModel, rhs: RenderScreenModel) -> Bool {
        lhs.trimmedRows == rhs.trimmedRows && lhs.notUnderstood == rhs.notUnderstood && lhs.overflows == rhs.overflows
    }

    /// Rows without trailing untouched cells, and no trailing empty rows.
    var trimmedRows: [[Cell?]] {
        var result = rows.map { row in
            var row = row
            while row.last == .some(nil) { row.removeLast() }
            return row
        }
        while result.last?.isEmpty == true { result.removeLast() }
        return result
    }

    var cellCount: Int { rows.reduce(0) { $0 + $1.compactMap { $0 }.count } }

    mutating func feed(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\u{1B}":
                guard let next = characters.popFirst() else {
                    notUnderstood.append("ESC at end")
                    return
                }
                switch next {
                case "[":
                    var body = ""
                    while let code = characters.popFirst() {
                        if let value = code.unicodeScalars.first?.value, (0x40...0x7E).contains(value) {
                            controlSequence(parameters: body, final: code)
                            break
                        }
                        body.append(code)
                    }
                case "7": saved = (row, column)
                case "8": (row, column) = saved
                default: notUnderstood.append("ESC \(next)")
                }
            case "\r":
                column = 0
            case "\n":
                // As a terminal sees it through a tty, which turns LF into CR LF.
                row += 1
                column = 0
            default:
                if let value = character.unicodeScalars.first?.value, value < 0x20 || value == 0x7F {
                    notUnderstood.append("control \(value)")
                } else {
                    put(character)
                }
            }
        }
    }

    private mutating func put(_ character: Character) {
        last = character
        guard column < columns else {
            overflows += 1
            return
        }
        while rows.count <= row { rows.append([]) }
        while rows[row].count <= column { rows[row].append(nil) }
        rows[row][column] = Cell(
            character: character,
            foreground: character == " " ? nil : foreground,
            background: character == "█" ? nil : background,
            inverse: inverse)
        column += 1
    }

    private mutating func controlSequence(parameters: String, final: Character) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let count = max(1, numbers.first.flatMap { $0 } ?? 1)
        switch final {
        case "m": sgr(numbers)
        case "b":
            guard let last else {
                notUnderstood.append("REP with nothing before it")
                return
            }
            for _ in 0..<count { put(last) }
        case "A": row = max(0, row - count)
        case "B": row += count
        case "C": column = min(columns, column + count)
        case "D": column = max(0, column - count)
        default: notUnderstood.append("CSI \(parameters)\(final)")
        }
    }

    private mutating func sgr(_ numbers: [Int?]) {
        var index = 0
        let values = numbers.isEmpty ? [0] : numbers.map { $0 ?? 0 }
        func colour(at start: Int) -> (Colour?, Int) {
            guard start + 1 < values.count else { return (nil, values.count) }
            if values[start + 1] == 5, start + 2 < values.count { return (.indexed(values[start + 2]), start + 3) }
            if values[start + 1] == 2, start + 4 < values.count {
                return (.rgb(values[start + 2], values[start + 3], values[start + 4]), start + 5)
            }
            return (nil, values.count)
        }
        while index < values.count {
            let value = values[index]
            switch value {
            case 0:
                foreground = nil
                background = nil
                inverse = false
                index += 1
            case 7: inverse = true; index += 1
            case 27: inverse = false; index += 1
            case 30...37: foreground = .indexed(value - 30); index += 1
            case 90...97: foreground = .indexed(value - 90 + 8); index += 1
            case 40...47: background = .indexed(value - 40); index += 1
            case 100...107: background = .indexed(value - 100 + 8); index += 1
            case 39: foreground = nil; index += 1
            case 49: background = nil; index += 1
            case 38: (foreground, index) = colour(at: index)
            case 48: (background, index) = colour(at: index)
            default:
                notUnderstood.append("SGR \(value)")
                index += 1
            }
        }
    }
}
