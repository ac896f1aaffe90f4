extension Int {
    /// The number with comma thousands separators ("1,034"), the same on every machine
    /// whatever its locale.
    /// - Complexity: O(digits), one allocation (the string); a list's status shows it on every
    ///   keystroke.
    public var grouped: String {
        // At most 19 digits, 6 commas and a sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var value = magnitude
            var start = buffer.count
            var digits = 0
            repeat {
                if digits > 0 && digits % 3 == 0 {
                    start -= 1
                    buffer[start] = UInt8(ascii: ",")
                }
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                digits += 1
            } while value > 0
            if self < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeMutableBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }
}
