import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// Renders an ``XLSXDocument`` into an `.xlsx` file with libxlsxwriter.
///
/// - Text is written as text, never as formulas (`=SUM(A1)` stays text): shared strings on a
///   sheet a chart reads, inline strings on the others, which are written row by row.
/// - Integers are numbers (format `0`); integers beyond Excel's 15 significant digits are
///   written as text so no digit is lost.
/// - Money is a number (milliunits / 1000, only here at the file-format boundary) with a number
///   format of the currency's own decimals and its code, e.g. `#,##0.00 "USD"`; negative
///   amounts show a minus. Unknown currencies get 2 decimals, like ``Money/formatted``.
/// - Dates and date-times are real date cells (`yyyy-mm-dd`, `yyyy-mm-dd hh:mm:ss`).
/// - Percentages come from parts per million: `0%` when every percentage in the column is
///   whole, else `0.0%` for the whole column, so the column stays aligned.
/// - The header row is frozen and carries an autofilter down to the last row.
/// - Columns without a given width are sized from their longest rendered content (title rows
///   excluded: titles overflow into the empty cells beside them), clamped to 8...60.
///
/// The file is written through ``AtomicFile``: a temporary file in the same directory renamed over
/// `path`, so readers never see a half-written report; it gets mode `0640`.
public enum XLSXWriter {
    /// The narrowest and widest computed column widths, in Excel character units.
    package static let computedWidthRange: ClosedRange<Double> = 8...60
    /// The largest magnitude written as a numeric integer cell (Excel keeps 15 digits).
    package static let maxExactInteger: Int64 = 999_999_999_999_999

    /// Writes `document` to `path` atomically.
    ///
    /// - Parameters:
    ///   - document: The sheets to write; validated before any file is touched.
    ///   - path: The final file path; its directory must exist. An existing file is replaced.
    ///   - createdAt: The creation time stored in the document properties, in milliseconds
    ///     since 1970 (UTC), normally the run's clock. Pass it for reproducible files: with the
    ///     same document and `createdAt` two runs write identical bytes. Nil stores the current
    ///     time (as does any value in the first second of 1970, which libxlsxwriter reads as
    ///     "unset").
    /// - Throws: ``XLSXError`` with a one-line message naming `path` and the sheet, cell or
    ///   step. No temporary file is left behind and an existing file at `path` is untouched.
    /// - Parameter streams: rows appended to sheets after their own, read as they are written and never all in
    ///   memory (no chart may read such a sheet). A streamed cell the format cannot hold is written as text, and a
    ///   row beyond the sheet's last is left out and counted in a last row; each is a returned warning.
    /// - Returns: the warnings of the streamed rows, each with its sheet.
    @discardableResult
    public static func write(
        _ document: XLSXDocument, streams: [XLSXRowStream] = [], to path: String, createdAt: Int64? = nil
    ) throws -> [XLSXWarning] {
        try validate(document, path: path)
        try validate(streams, of: document, path: path)
        let file: AtomicFile
        do {
            file = try AtomicFile(path: path)
        } catch {
            throw XLSXError(error)
        }
        // libxlsxwriter writes the temporary file by name when the workbook is closed.
        let warnings = try render(
            document, streams: streams, to: file.temporaryPath, displayPath: path, createdAt: createdAt)
        do {
            try file.commit()
        } catch {
            throw XLSXError(error)
        }
        return warnings
    }
}
