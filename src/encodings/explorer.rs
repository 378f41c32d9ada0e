//! The encoding-sizes explorer: one self-contained HTML page (no network) that recomputes the formulas live.

/// The page, with `colours` in its colour field; the side slider starts at 16.
pub fn html(colours: u64) -> String {
    include_str!("explorer.html").replace("__COLOURS__", &colours.max(1).to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn self_contained_and_seeded() {
        let page = super::html(17);
        assert!(page.contains("value=\"17\""));
        assert!(!page.contains("__COLOURS__"));
        // No network: nothing is loaded from elsewhere.
        for needle in ["src=\"http", "href=\"http", "@import", "<link"] {
            assert!(!page.contains(needle), "{needle}");
        }
    }
}
