import OrderedCollections
/// Marks a longest strictly increasing subsequence of `keys`.
///
/// Patience sorting with predecessor links. A key larger than every tail so far is appended
/// without a search, so an already-sorted run (the common case: most items stay put) costs
/// O(1) per key; the worst case is O(m log m).
///
/// - Returns: `result[i] == true` when `keys[i]` belongs to the chosen subsequence.
@inlinable func longestIncreasingSubsequence(_ keys: [Int]) -> [Bool] {
    let count = keys.count
    var member = [Bool](repeating: false, count: count)
    guard count > 0 else { return member }
    var tails: [Int] = []          // tails[l] = index of the smallest tail of an increasing run of length l+1
    tails.reserveCapacity(min(count, 1024))
    var previous = [Int](repeating: -1, count: count)
    keys.withUnsafeBufferPointer { keys in
        for i in 0..<count {
            let key = keys[i]
            if let last = tails.last {
                if keys[last] < key {
                    previous[i] = last
                    tails.append(i)
                    continue
                }
            } else {
                tails.append(i)
                continue
            }
            var low = 0, high = tails.count - 1
            while low < high {
                let mid = (low + high) / 2
                if keys[tails[mid]] < key { low = mid + 1 } else { high = mid }
            }
            previous[i] = low > 0 ? tails[low - 1] : -1
            tails[low] = i
        }
    }
    var index = tails[tails.count - 1]
    while index >= 0 {
        member[index] = true
        index = previous[index]
    }
    return member
}
