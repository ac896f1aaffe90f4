import ProcessMemory
import Testing

@Suite struct MemorySizeTests {
    @Test(arguments: [
        ("256M", 256 << 20), ("256m", 256 << 20), ("256MiB", 256 << 20), ("256MB", 256 << 20),
        ("1G", 1 << 30), ("1.5G", 3 << 29), ("2 GiB", 2 << 30), ("64k", 64 << 10), ("1T", 1 << 40),
        ("65536", 65_536), ("0", 0), ("1_000", 1_000),
    ])
    func parses(_ text: String, _ bytes: Int) {
        #expect(MemorySize.parse(text) == bytes)
    }

    @Test(arguments: ["", "M", "-1M", "12X", "1.5.5G", "abc", "1iB", "9999999T", "nan", "inf"])
    func refuses(_ text: String) {
        #expect(MemorySize.parse(text) == nil)
    }

    @Test func formats() {
        #expect(MemorySize.format(256 << 20) == "256 MiB")
        #expect(MemorySize.format(3 << 29) == "1.5 GiB")
        #expect(MemorySize.format(800 << 10) == "800 KiB")
        #expect(MemorySize.format(12) == "12 bytes")
    }

    @Test func residentMemoryIsRead() throws {
        let resident = try #require(ResidentMemory.bytes())
        #expect(resident > 1 << 20)
        #expect(resident % ResidentMemory.pageSize == 0)
        // Touching 64 MiB more shows in RSS (what the governor relies on).
        let block = [UInt8](repeating: 1, count: 64 << 20)
        let after = try #require(ResidentMemory.bytes())
        #expect(after >= resident + (60 << 20), "RSS \(resident) → \(after) after touching 64 MiB")
        #expect(block[block.count - 1] == 1)
    }
}
