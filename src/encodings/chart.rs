//! The encoding sizes as an SVG line chart on a log scale, one line per count, board side across.

use std::fmt::Write as _;

use super::sizes::{Estimate, SAT_CEILING};

/// The counts drawn, with their colours: (label, colour, value).
pub fn series(e: &Estimate) -> [(&'static str, &'static str, f64); 5] {
    [
        ("direct: conflict clauses", "#d62728", e.direct_conflict_clauses),
        ("direct: placement variables", "#ff7f0e", e.placement_variables as f64),
        ("seam: implication clauses", "#1f77b4", e.seam_implication_clauses as f64),
        ("seam: exclusion clauses", "#2ca02c", e.seam_exclusion_clauses as f64),
        ("seam: seam variables", "#9467bd", e.seam_variables as f64),
    ]
}

/// Draws `rows` (increasing sides, one colour count) as a standalone SVG.
pub fn svg(rows: &[Estimate]) -> String {
    let (w, h, left, right, top, bottom) = (760.0, 440.0, 70.0, 230.0, 40.0, 50.0);
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return String::from("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
    };
    let (n0, n1) = (first.n as f64, (last.n as f64).max(first.n as f64 + 1.0));
    let (lo, hi) = (0.0_f64, 10.0_f64); // decades 10^0 .. 10^10
    let x = |n: f64| left + (n - n0) / (n1 - n0) * (w - left - right);
    let y = |v: f64| top + (hi - v.max(1.0).log10().clamp(lo, hi)) / (hi - lo) * (h - top - bottom);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        out,
        "<text x=\"{left}\" y=\"20\" font-size=\"14\">Encoding sizes, n×n board, c = {} colours (log scale)</text>",
        first.colours
    );
    for d in 0..=10 {
        let yy = y(10f64.powi(d));
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">1e{d}</text>",
            w - right,
            left - 6.0,
            yy + 4.0
        );
    }
    for e in rows {
        let xx = x(e.n as f64);
        let _ =
            writeln!(out, "<text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>", h - bottom + 18.0, e.n);
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">board side n</text>",
        (left + w - right) / 2.0,
        h - 10.0
    );
    if (first.n..=last.n).contains(&SAT_CEILING) {
        let xx = x(SAT_CEILING as f64);
        let _ = writeln!(
            out,
            "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{top}\" y2=\"{}\" stroke=\"#555\" stroke-dasharray=\"5,4\"/><text x=\"{:.1}\" y=\"{:.1}\">~{SAT_CEILING}×{SAT_CEILING}: pure SAT ceiling</text>",
            h - bottom,
            xx + 4.0,
            top + 12.0
        );
    }
    for (k, (label, colour, _)) in series(first).into_iter().enumerate() {
        let points: Vec<String> =
            rows.iter().map(|e| format!("{:.1},{:.1}", x(e.n as f64), y(series(e)[k].2))).collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            points.join(" ")
        );
        let ly = top + 20.0 * k as f64;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{:.1}\" width=\"14\" height=\"4\" fill=\"{colour}\"/><text x=\"{}\" y=\"{:.1}\">{label}</text>",
            w - right + 12.0,
            ly,
            w - right + 32.0,
            ly + 5.0
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_count_and_the_ceiling() {
        let rows: Vec<Estimate> = (4..=16).map(|n| Estimate::new(n, 17)).collect();
        let svg = svg(&rows);
        assert_eq!(svg.matches("<polyline").count(), 5);
        assert!(svg.contains("pure SAT ceiling"));
        assert!(svg.ends_with("</svg>\n"));
    }
}
