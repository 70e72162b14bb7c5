import AppleData
import Foundation
import ReconModel
import ReconStorage

extension RowFields {
    /// One JSONL line as row fields, or why it is not one.
    package static func jsonLine(_ text: String) -> (RowFields?, String?) {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [])
        else { return (nil, "bad JSON") }
        guard let dictionary = object as? [String: Any] else {
            return (nil, "bad JSON: a line must be one JSON object")
        }
        var keys: [String] = []
        var values: [String] = []
        var problem: String?
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]
            let text: String
            switch value {
            case let string as String: text = string
            case is NSNull, nil: text = ""
            case let number as NSNumber: text = number.stringValue
            default:
                text = ""
                if problem == nil { problem = "bad JSON: field '\(key)' must be a string or a number" }
            }
            keys.append(key)
            values.append(text)
        }
        let row = RowFields(layout: FieldLayout(header: keys), values: values)
        return (row, problem)
    }
}
