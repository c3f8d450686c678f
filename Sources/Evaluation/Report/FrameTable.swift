import Foundation
import VPSModel

/// The per-frame table: one row per frame, every column sortable by a click on its
/// header (a few lines of inline script; numbers sort as numbers, empty cells last).
struct FrameTable {
    var outcomes: FrameOutcomes
    var unit: ReportMap.LengthUnit

    /// A cell: the text shown and the value it sorts by (nil: sorts by its text).
    private struct Cell {
        var text: String
        var sortValue: Double?
        init(_ text: String, _ sortValue: Double? = nil) { self.text = text; self.sortValue = sortValue }
    }

    func html() -> String { gathered(write) }

    /// The table, handed to `out` a row at a time: a long run's table is never held whole.
    func write(_ out: (String) -> Void) {
        let t0 = outcomes.first?.timestamp ?? 0
        let d = LengthDisplay.forLengths(upTo: outcomes.lazy.compactMap { $0.error?.translation }.max() ?? 0.01, unit: unit)
        let headers = ["#", "frame", "image", "time (s)", "status", "section", "inliers", "matches",
                       "translation error (\(d.unit))", "rotation error (°)", "reprojection (px)", "total (ms)", "reason"]
        var s = "<table id=\"frames\" class=\"sortable\"><thead><tr>"
        for (i, h) in headers.enumerated() {
            s += "<th data-column=\"\(i)\" title=\"sort by \(escape(h))\">\(escape(h))</th>"
        }
        s += "</tr></thead><tbody>\n"
        out(s)
        for (i, o) in outcomes.enumerated() {
            let r = o.result, e = o.error
            let cells = [
                Cell("\(i)", Double(i)),
                Cell(o.frameId),
                Cell(o.image ?? ""),
                Cell(String(format: "%.3f", o.timestamp - t0), o.timestamp - t0),
                Cell(r.status.rawValue),
                Cell(r.sectionId ?? ""),
                Cell("\(r.inliers)", Double(r.inliers)),
                Cell("\(r.matches)", Double(r.matches)),
                Cell(e.map { String(format: "%.2f", $0.translation * d.factor) } ?? "", e.map { $0.translation * d.factor }),
                Cell(e.map { String(format: "%.3f", $0.rotationDegrees) } ?? "", e?.rotationDegrees),
                Cell(r.isLocalized ? String(format: "%.2f", r.reprojectionError) : "", r.isLocalized ? r.reprojectionError : nil),
                Cell(String(format: "%.2f", r.timings.total), r.timings.total),
                Cell(r.reason ?? ""),
            ]
            var s = "<tr id=\"frame-\(escape(o.frameId))\"\(r.isLocalized ? "" : " class=\"failed\"")>"
            for c in cells {
                s += c.sortValue.map { "<td data-v=\"\($0)\">" } ?? "<td>"
                s += escape(c.text) + "</td>"
            }
            s += "</tr>\n"
            out(s)
        }
        out("</tbody></table>\n<script>\(FrameTable.sortScript)</script>")
    }

    /// Click a header to sort by it; click again to reverse. Cells with `data-v` compare as
    /// numbers, the others as text; empty cells go last either way.
    static let sortScript = """
        (function () {
          var table = document.getElementById('frames');
          var body = table.tBodies[0];
          var state = { column: -1, ascending: true };
          function key(row, c) {
            var cell = row.cells[c];
            var v = cell.getAttribute('data-v');
            if (v !== null) return parseFloat(v);
            return cell.textContent;
          }
          Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
            th.addEventListener('click', function () {
              var c = parseInt(th.getAttribute('data-column'), 10);
              state.ascending = state.column === c ? !state.ascending : true;
              state.column = c;
              var rows = Array.prototype.slice.call(body.rows);
              rows.sort(function (a, b) {
                var x = key(a, c), y = key(b, c);
                var ex = x === '', ey = y === '';
                if (ex || ey) return ex === ey ? 0 : (ex ? 1 : -1);
                var r = (typeof x === 'number' && typeof y === 'number') ? x - y : String(x).localeCompare(String(y));
                return state.ascending ? r : -r;
              });
              rows.forEach(function (r) { body.appendChild(r); });
              Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
              th.setAttribute('aria-sort', state.ascending ? 'ascending' : 'descending');
            });
          });
        })();
        """
}

extension FrameTable {
    init(outcomes: [FrameOutcome], unit: ReportMap.LengthUnit) { self.init(outcomes: FrameOutcomes(outcomes), unit: unit) }
}
