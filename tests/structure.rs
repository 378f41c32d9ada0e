//! The layering of `src/` as a test: no import circle between its files, no function over 80
//! lines, no file over 500, and no document naming a path of `src/` that does not exist.
//!
//! Each file under `src/` is a module. A file depends on another when it names a path into it:
//! `crate::a::b`, `super::x`, `self::x`, or a child module of its own, in a `use` line or in code
//! (test code excluded: `tests.rs` files and `#[cfg(test)]` items). A path resolves to the
//! longest module it starts with, so `crate::search::Options` is a dependency on
//! `search/mod.rs`. The dependencies must form no circle: a circle means two files cannot be
//! read, tested or changed one without the other, and its list here names every edge in it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Functions allowed above [`MAX_FUNCTION_LINES`], as `file::name`, each with its reason (an
/// inner loop whose split would cost speed, measured). None today.
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

const MAX_FUNCTION_LINES: usize = 80;

/// Most lines a file of `src/` may have, its unit tests included (`tests.rs` files aside):
/// past it, a file holds more than one concept, or one a newcomer cannot read in one sitting.
const MAX_FILE_LINES: usize = 500;

/// A module path: `["search", "engine"]` for `src/search/engine.rs`, `[]` for `lib.rs`.
type Module = Vec<String>;

struct Source {
    file: String,
    module: Module,
    /// Source text with comments, strings and test code blanked out (newlines kept).
    code: String,
    /// Modules this file declares with `mod name;` (its child files).
    children: BTreeSet<String>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn module_of(relative: &str) -> Module {
    let mut parts: Vec<String> = relative.trim_end_matches(".rs").split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") || relative == "lib.rs" || relative == "main.rs" {
        parts.pop();
    }
    parts
}

/// Blanks comments, string and char literals with spaces, keeping every newline.
fn blank_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if b[i] == b'r' && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) && !ident_byte(b, i) {
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let start = i + 2 + hashes;
            let end = b[start..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| start + p + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a): only the first is blanked.
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..].iter().position(|&c| c == b'\'').map(|p| i + 2 + p + 1)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// True when the byte before `i` continues an identifier (so `r"` there is not a raw string).
fn ident_byte(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// The index just past the brace that closes the one at `open`.
fn matching_brace(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (j, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Blanks every item that follows `#[cfg(test)]` (a `mod tests { .. }`, a `use`, a `mod x;`).
fn blank_test_items(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let marker = "#[cfg(test)]";
    let mut from = 0;
    while let Some(p) = code[from..].find(marker) {
        let start = from + p;
        let bytes = code.as_bytes();
        let semi = code[start..].find(';').map(|q| start + q);
        let brace = code[start..].find('{').map(|q| start + q);
        let end = match (semi, brace) {
            (Some(s), Some(b)) if b < s => matching_brace(bytes, b),
            (Some(s), _) => s + 1,
            (None, Some(b)) => matching_brace(bytes, b),
            (None, None) => code.len(),
        };
        for c in &mut out[start..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(out).unwrap()
}

fn read_sources() -> Vec<Source> {
    let dir = src_dir();
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut sources = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
        if relative.ends_with("/tests.rs") || relative == "main.rs" {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let code = blank_test_items(&blank_literals(&text));
        let children = declared_modules(&code);
        sources.push(Source { module: module_of(&relative), file: relative, code, children });
    }
    sources
}

fn declared_modules(code: &str) -> BTreeSet<String> {
    let words: Vec<&str> = code.split(|c: char| c.is_whitespace() || c == ';').filter(|w| !w.is_empty()).collect();
    words.windows(2).filter(|w| w[0] == "mod").map(|w| w[1].trim_end_matches(';').to_owned()).collect()
}

/// The identifier starting at byte `i` of `s`, if any.
fn ident_at(s: &[u8], i: usize) -> &str {
    let end = s[i..].iter().position(|c| !(c.is_ascii_alphanumeric() || *c == b'_')).map_or(s.len(), |p| i + p);
    std::str::from_utf8(&s[i..end]).unwrap()
}

/// Every path the code names, as (byte offset, segments), `use` trees expanded.
fn paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let s = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let starts_word = (s[i].is_ascii_alphabetic() || s[i] == b'_') && !ident_byte(s, i);
        if !starts_word {
            i += 1;
            continue;
        }
        let word = ident_at(s, i);
        if word == "use" {
            let end = code[i..].find(';').map_or(s.len(), |p| i + p);
            let mut prefix = Vec::new();
            use_tree(&code[i + 3..end], &mut prefix, &mut |path| found.push((i, path)));
            i = end;
            continue;
        }
        // A path in code: word(::word)*
        let start = i;
        let mut segments = vec![word.to_owned()];
        let mut j = i + word.len();
        while s[j..].starts_with(b"::") && j + 2 < s.len() && (s[j + 2].is_ascii_alphabetic() || s[j + 2] == b'_') {
            let next = ident_at(s, j + 2);
            segments.push(next.to_owned());
            j += 2 + next.len();
        }
        if segments.len() > 1 {
            found.push((start, segments));
        }
        i = j.max(i + 1);
    }
    found
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn use_tree(tree: &str, prefix: &mut Vec<String>, emit: &mut dyn FnMut(Vec<String>)) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head: Vec<String> =
            tree[..open].split("::").map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut item_start = 0;
        let mut items = Vec::new();
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&inner[item_start..k]);
                    item_start = k + 1;
                }
                _ => {}
            }
        }
        items.push(&inner[item_start..]);
        let depth_before = prefix.len();
        prefix.extend(head);
        for item in items.into_iter().filter(|t| !t.trim().is_empty()) {
            use_tree(item, prefix, emit);
        }
        prefix.truncate(depth_before);
    } else {
        let name = tree.split(" as ").next().unwrap_or(tree);
        let mut path = prefix.clone();
        path.extend(
            name.split("::").map(str::trim).filter(|p| !p.is_empty() && *p != "self" && *p != "*").map(str::to_owned),
        );
        emit(path);
    }
}

/// The module a path in `source` points into, if it points into this crate.
fn resolve(source: &Source, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("super") => {
            base = source.module.clone();
            while rest.first().is_some_and(|p| p == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        Some("self") => {
            base = source.module.clone();
            rest = &path[1..];
        }
        Some(first) if source.children.contains(first) => base = source.module.clone(),
        _ => return None,
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    (0..=full.len()).rev().map(|k| full[..k].to_vec()).find(|m| modules.contains(m))
}

fn line_of(code: &str, offset: usize) -> usize {
    code[..offset].bytes().filter(|&c| c == b'\n').count() + 1
}

fn name(module: &Module) -> String {
    if module.is_empty() { "crate".to_owned() } else { module.join("::") }
}

/// Strongly connected components of more than one node (Tarjan).
fn circles(edges: &BTreeMap<Module, BTreeMap<Module, String>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeMap<Module, String>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit(w: &mut Walk<'_>, v: &Module) {
        let n = w.index.len();
        w.index.insert(v.clone(), n);
        w.low.insert(v.clone(), n);
        w.stack.push(v.clone());
        for u in w.edges.get(v).into_iter().flat_map(|m| m.keys()) {
            if !w.index.contains_key(u) {
                visit(w, u);
                let low = w.low[v].min(w.low[u]);
                w.low.insert(v.clone(), low);
            } else if w.stack.contains(u) {
                let low = w.low[v].min(w.index[u]);
                w.low.insert(v.clone(), low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            loop {
                let u = w.stack.pop().unwrap();
                let done = &u == v;
                component.push(u);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut w = Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in edges.keys() {
        if !w.index.contains_key(v) {
            visit(&mut w, v);
        }
    }
    w.found
}

#[test]
fn no_import_circle_between_files_of_src() {
    let sources = read_sources();
    let modules: BTreeSet<Module> = sources.iter().map(|s| s.module.clone()).collect();
    let mut edges: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
    for source in &sources {
        let out = edges.entry(source.module.clone()).or_default();
        for (offset, path) in paths(&source.code) {
            if let Some(target) = resolve(source, &path, &modules).filter(|t| *t != source.module) {
                out.entry(target).or_insert_with(|| format!("{}:{}", source.file, line_of(&source.code, offset)));
            }
        }
    }
    let found = circles(&edges);
    let mut message = String::new();
    for component in &found {
        let names: Vec<String> = component.iter().map(name).collect();
        message.push_str(&format!("\ncircle: {}\n", names.join(", ")));
        for from in component {
            for (to, at) in &edges[from] {
                if component.contains(to) {
                    message.push_str(&format!("  {} -> {} ({at})\n", name(from), name(to)));
                }
            }
        }
    }
    assert!(found.is_empty(), "files of src/ import each other in a circle:{message}");
}

/// Every `fn` with a body: (file, name, first line, line count).
fn functions(source: &Source) -> Vec<(String, usize, usize)> {
    let code = source.code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(p) = source.code[i..].find("fn ") {
        let at = i + p;
        i = at + 3;
        if ident_byte(code, at) {
            continue;
        }
        let name = ident_at(code, at + 3).to_owned();
        if name.is_empty() {
            continue;
        }
        let mut depth = 0i32;
        let mut body = None;
        for (j, &c) in code.iter().enumerate().skip(at) {
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth == 0 => break,
                b'{' if depth == 0 => {
                    body = Some(j);
                    break;
                }
                _ => {}
            }
        }
        if let Some(open) = body {
            let close = matching_brace(code, open);
            let first = line_of(&source.code, at);
            found.push((name, first, line_of(&source.code, close.saturating_sub(1)) - first + 1));
        }
    }
    found
}

#[test]
fn no_function_of_src_over_eighty_lines() {
    let mut long = Vec::new();
    for source in read_sources() {
        for (name, line, lines) in functions(&source) {
            let key = format!("{}::{name}", source.file);
            if lines > MAX_FUNCTION_LINES && !LONG_FUNCTIONS.iter().any(|(allowed, _)| *allowed == key) {
                long.push(format!("  {}:{line} fn {name}: {lines} lines", source.file));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them along their phases):\n{}",
        long.join("\n")
    );
}

/// The files of `sources` over [`MAX_FILE_LINES`] lines, with their counts.
fn long_files(sources: &[Source]) -> Vec<(String, usize)> {
    let lines = |s: &Source| s.code.lines().count();
    sources.iter().filter(|s| lines(s) > MAX_FILE_LINES).map(|s| (s.file.clone(), lines(s))).collect()
}

#[test]
fn no_file_of_src_over_five_hundred_lines() {
    let long = long_files(&read_sources());
    let list: Vec<String> = long.iter().map(|(file, lines)| format!("  {file}: {lines} lines")).collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines (split them by concept or phase into a folder):\n{}",
        list.join("\n")
    );
}

#[test]
fn the_checker_sees_circles_and_long_functions() {
    // The two checks above must be able to fail: a hand-made pair of files that import each
    // other, and a long function, are found.
    let a = Source {
        file: "a.rs".into(),
        module: vec!["a".into()],
        code: "use crate::b::{X, c::{Y}};\nfn f() {}\n".into(),
        children: BTreeSet::new(),
    };
    let b = Source {
        file: "b.rs".into(),
        module: vec!["b".into()],
        code: format!("fn g() {{\n{}}}\nfn h() {{ super::a::f(); }}\n", "    let x = 1;\n".repeat(120)),
        children: BTreeSet::new(),
    };
    let modules: BTreeSet<Module> = [vec![], vec!["a".to_owned()], vec!["b".to_owned()]].into_iter().collect();
    let mut edges: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
    for source in [&a, &b] {
        let out = edges.entry(source.module.clone()).or_default();
        for (_, path) in paths(&source.code) {
            if let Some(t) = resolve(source, &path, &modules).filter(|t| *t != source.module && !t.is_empty()) {
                out.insert(t, String::new());
            }
        }
    }
    assert_eq!(circles(&edges), vec![vec![vec!["a".to_owned()], vec!["b".to_owned()]]]);
    let lengths: Vec<(String, usize)> = functions(&b).into_iter().map(|(n, _, l)| (n, l)).collect();
    assert_eq!(lengths, vec![("g".to_owned(), 122), ("h".to_owned(), 1)]);
    let long =
        Source { file: "c.rs".into(), module: vec!["c".into()], code: "\n".repeat(501), children: BTreeSet::new() };
    assert_eq!(long_files(&[a, long]), vec![("c.rs".to_owned(), 501)]);
    assert_eq!(blank_literals("let s = \"crate::x\"; // crate::y\n'a'"), "let s =           ;            \n   ");
}

/// The documents whose paths into `src/` are checked, from the repository's root:
/// `README.md`, `CONTRIBUTING.md`, `docs/*.md` and `results/*/README.md`.
fn documents(root: &Path) -> Vec<String> {
    let names = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let mut found = vec!["README.md".to_owned(), "CONTRIBUTING.md".to_owned()];
    found.extend(names("docs").into_iter().filter(|n| n.ends_with(".md")).map(|n| format!("docs/{n}")));
    let readmes = names("results").into_iter().map(|n| format!("results/{n}/README.md"));
    found.extend(readmes.filter(|p| root.join(p).is_file()));
    found
}

/// The folders directly under `src/` (`score`, `search`, ...).
fn src_folders() -> BTreeSet<String> {
    let entries = fs::read_dir(src_dir()).unwrap().map(|e| e.unwrap().path());
    entries.filter(|p| p.is_dir()).map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect()
}

/// True for the bytes the documents write paths with.
fn path_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'/' | b'-')
}

/// Every path `text` names that begins with `src/` (not the tail of a longer path, such as
/// `rust/src/config.rs` in another project's checkout), a closing full stop taken off.
fn src_paths(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    for (i, _) in text.match_indices("src/") {
        if i > 0 && path_byte(b[i - 1]) {
            continue;
        }
        let end = b[i..].iter().position(|&c| !path_byte(c)).map_or(b.len(), |p| i + p);
        found.push(text[i..end].trim_end_matches('.').to_owned());
    }
    found
}

/// Every path `text` quotes as code outside code blocks (`score/scan/mod.rs`) whose first
/// folder is one of `folders` (those of `src/`), an item after `::` taken off: the paths a
/// document writes relative to `src/`.
fn quoted_paths_under(text: &str, folders: &BTreeSet<String>) -> Vec<String> {
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            prose.push_str(line);
        }
        prose.push('\n');
    }
    let quoted = prose.split('`').skip(1).step_by(2).map(|span| span.split("::").next().unwrap_or_default());
    let under =
        |p: &&str| p.bytes().all(path_byte) && p.split_once('/').is_some_and(|(first, _)| folders.contains(first));
    quoted.filter(under).map(str::to_owned).collect()
}

/// Every path of `src/` that `README.md`, `CONTRIBUTING.md`, `docs/*.md` and
/// `results/*/README.md` name exists: those written with `src/` anywhere in the text, and
/// those quoted under a folder of `src/` without it (`score/scan/mod.rs`, found under `src/`,
/// at the root or beside the document). Fails when a file is moved, split or deleted and a
/// document still sends the reader to its old place (`src/flux.rs` after it became
/// `src/flux/mod.rs`, `score/walk/plan.rs` after the walk was retired), naming the document
/// and the path.
#[test]
fn every_src_path_the_documents_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folders = src_folders();
    let mut missing = BTreeSet::new();
    for doc in documents(root) {
        let text = fs::read_to_string(root.join(&doc)).unwrap();
        let beside = root.join(&doc).parent().unwrap().to_path_buf();
        for path in src_paths(&text) {
            if !root.join(&path).exists() {
                missing.insert(format!("  {doc}: {path}"));
            }
        }
        for path in quoted_paths_under(&text, &folders) {
            if ![root.to_path_buf(), src_dir(), beside.clone()].iter().any(|dir| dir.join(&path).exists()) {
                missing.insert(format!("  {doc}: {path} (as src/{path})"));
            }
        }
    }
    let list: Vec<String> = missing.into_iter().collect();
    assert!(list.is_empty(), "documents name paths of src/ that do not exist:\n{}", list.join("\n"));
}

#[test]
fn the_path_check_reads_paths_as_the_documents_write_them() {
    // The check above must find a path where the documents put one, and only there: `src/`
    // paths anywhere (not another project's `rust/src/`), quoted paths under a folder of
    // `src/` outside code blocks, an item after `::` taken off.
    let text = "See `src/flux.rs`, src/score/mod.rs. and `rust/src/config.rs`;\n\
                `score/scan.rs` and `search/engine.rs::walk_fast`,\n\
                ```sh\nedgematch `score/x.rs`\n```\n`models/a.json`, `score/*.rs`";
    assert_eq!(src_paths(text), vec!["src/flux.rs", "src/score/mod.rs"]);
    let folders: BTreeSet<String> = ["score".to_owned(), "search".to_owned()].into_iter().collect();
    assert_eq!(quoted_paths_under(text, &folders), vec!["score/scan.rs", "search/engine.rs"]);
}
