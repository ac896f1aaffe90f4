/// Sizes of memory as people write them on a command line: `256M`, `1.5G`, `512MiB`, `65536`.
///
/// A bare number is bytes; `K`, `M`, `G` and `T` (with or without `iB` or `B`, any case) are
/// powers of 1,024, as `free`, cgroups and Kubernetes' `Mi` mean them.
/// ```swift
/// MemorySize.parse("256M")    // 268_435_456
/// MemorySize.format(268_435_456)  // "256 MiB"
/// ```
public enum MemorySize {
    /// The size `text` names, or `nil` when it is no size (negative, empty, an unknown unit, or
    /// past 2⁶² bytes).
    public static func parse(_ text: String) -> Int? {
        var digits = Substring(text.filter { $0 != " " && $0 != "_" })
        var unit = Substring("")
        while let last = digits.last, last.isLetter {
            unit.insert(last, at: unit.startIndex)
            digits.removeLast()
        }
        let shifts = ["": 0, "k": 10, "m": 20, "g": 30, "t": 40]
        var name = unit.lowercased()
        if name.hasSuffix("ib") { name.removeLast(2) } else if name.hasSuffix("b") { name.removeLast() }
        if unit.lowercased().hasSuffix("ib") && name.isEmpty { return nil }  // "iB" alone
        guard let shift = shifts[name], !digits.isEmpty, let value = Double(digits), value.isFinite, value >= 0 else { return nil }
        let bytes = value * Double(1 << shift)
        guard bytes < Double(1 << 62) else { return nil }
        return Int(bytes.rounded())
    }

    /// `bytes` in the largest binary unit that keeps a whole or one-decimal figure (`256 MiB`,
    /// `1.5 GiB`, `800 KiB`, `12 bytes`).
    public static func format(_ bytes: Int) -> String {
        let units = [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")]
        for (shift, name) in units where bytes >= 1 << shift {
            let tenths = (bytes * 10 + (1 << (shift - 1))) >> shift
            return tenths % 10 == 0 ? "\(tenths / 10) \(name)" : "\(tenths / 10).\(tenths % 10) \(name)"
        }
        return "\(bytes) bytes"
    }
}
