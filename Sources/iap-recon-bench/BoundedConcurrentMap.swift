import Foundation

/// Runs `operation` for every element with at most `limit` in flight, results in input order.
func boundedConcurrentMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], limit: Int, _ operation: @escaping @Sendable (Element) async -> Result
) async -> [Result] {
    guard !elements.isEmpty else { return [] }
    return await withTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: elements.count)
        var next = 0
        let width = max(1, limit)
        while next < elements.count, next < width {
            let index = next
            let element = elements[index]
            group.addTask { (index, await operation(element)) }
            next += 1
        }
        while let (index, result) = await group.next() {
            results[index] = result
            if next < elements.count {
                let nextIndex = next
                let element = elements[nextIndex]
                group.addTask { (nextIndex, await operation(element)) }
                next += 1
            }
        }
        return results.compactMap { $0 }
    }
}
