/// A plain-text table for the console: columns padded to their widest cell, numbers right-aligned.
struct TextTable {
    /// Column headers, and the rows added so far.
    let headers: [String]
    var rows: [[String]] = []

    /// A table with these column headers and no rows yet.
    init(_ headers: String...) {
        self.headers = headers
    }

    /// Adds a row; missing cells print empty.
    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    /// The table as lines of text, with a rule under the header.
    func render() -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            headers.indices.map { column in
                let cell = column < cells.count ? cells[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                // The first column is a label; the rest are figures.
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Number formatting shared by the tables.
enum Figure {
    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// A whole number with thousands separators, e.g. 12,345.
    static func count(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var output = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { output.append(",") }
            output.append(character)
        }
        return String(output.reversed())
    }
}
