//! Checks that keep lore's docs honest, run by the plain `cargo test` of the workspace.
//!
//! [`parse_orders`] reads the fenced `modules` block of `docs/architecture.md`: one line per
//! source folder, `path: a, b → c → d`, the layers from the bottom up. [`check_order`] then
//! reads every `.rs` file under that folder and reports each reference (`use` line or inline
//! path through `crate::`, `super::` or `self::`) from one module of the folder to another that
//! is not in an earlier layer; modules of one layer must not use each other. A module in the
//! folder that the line does not name, or a name with no module, is a problem too, so the
//! document cannot fall behind the code. Test code (`#[cfg(test)]` modules, `tests.rs`) is
//! not checked: tests may reach anywhere.
//!
//! What counts as a module of a folder: each `name.rs` and each subfolder `name/` (its files
//! belong to `name`), apart from the roots `lib.rs`, `main.rs` and `mod.rs` and the folder
//! `bin/`. A parent (`lib.rs`, `mod.rs`) is the front door of its folder, not a layer: it
//! declares the children, re-exports them and may hold what they share; references to its own
//! items (`super::Game`) are not checked.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// The documented layering of one source folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The folder, relative to the workspace root (`crates/geom/src`).
    pub dir: String,
    /// The layers from the bottom up; each holds the module names of one layer.
    pub layers: Vec<Vec<String>>,
    /// The line of the document that gave this order (1-based), for messages.
    pub line: usize,
}

impl Order {
    /// The layer index of a module, if the order names it.
    pub fn layer_of(&self, module: &str) -> Option<usize> {
        self.layers.iter().position(|layer| layer.iter().any(|m| m == module))
    }
}

/// One way the code and the document disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// `from` uses `to`, which is not in an earlier layer.
    Upward {
        /// The folder.
        dir: String,
        /// The file holding the reference.
        file: String,
        /// Its line (1-based).
        line: usize,
        /// The module that uses.
        from: String,
        /// The module used.
        to: String,
    },
    /// A module of the folder that the order does not name.
    Unlisted {
        /// The folder.
        dir: String,
        /// The module.
        module: String,
    },
    /// A name in the order with no module in the folder.
    Missing {
        /// The folder.
        dir: String,
        /// The name.
        module: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Upward { dir, file, line, from, to } => write!(
                f,
                "{file}:{line}: `{from}` uses `{to}`, but docs/architecture.md puts `{to}` in the same \
                 layer as `{from}` or above it ({dir}); move the code or change the order and say why"
            ),
            Problem::Unlisted { dir, module } => write!(
                f,
                "{dir}: module `{module}` is not in docs/architecture.md's order for this folder; add it \
                 to its layer"
            ),
            Problem::Missing { dir, module } => {
                write!(f, "{dir}: docs/architecture.md names `{module}`, but the folder has no such module")
            }
        }
    }
}

/// Reads the orders from the first fenced block whose info string is `modules`.
///
/// # Errors
/// A message naming the line when the block is missing or a line does not read as
/// `path: a, b → c`, or names a module twice.
pub fn parse_orders(markdown: &str) -> Result<Vec<Order>, String> {
    let mut orders = Vec::new();
    let mut inside = false;
    let mut found = false;
    for (index, raw) in markdown.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if !inside {
            if line == "```modules" {
                inside = true;
                found = true;
            }
            continue;
        }
        if line.starts_with("```") {
            break;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (dir, rest) =
            line.split_once(':').ok_or_else(|| format!("line {line_no}: expected `path: a → b`, found {line:?}"))?;
        let mut layers = Vec::new();
        let mut seen = BTreeSet::new();
        for layer in rest.split('→') {
            let names: Vec<String> = layer.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect();
            if names.is_empty() {
                return Err(format!("line {line_no}: an empty layer in {line:?}"));
            }
            for name in &names {
                if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(format!("line {line_no}: {name:?} is not a module name"));
                }
                if !seen.insert(name.clone()) {
                    return Err(format!("line {line_no}: `{name}` is named twice"));
                }
            }
            layers.push(names);
        }
        orders.push(Order { dir: dir.trim().to_string(), layers, line: line_no });
    }
    if !found {
        return Err("no ```modules block found".to_string());
    }
    Ok(orders)
}

/// The modules of a folder (see the crate docs for what counts).
pub fn modules_of(dir: &Path) -> std::io::Result<BTreeSet<String>> {
    let mut modules = BTreeSet::new();
    let mut test_only = BTreeSet::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "bin" && has_rust(&path)? {
                modules.insert(name);
            }
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if !matches!(stem, "lib" | "main" | "mod") {
                modules.insert(stem.to_string());
            } else {
                test_only.extend(test_only_modules(&fs::read_to_string(&path)?));
            }
        }
    }
    Ok(modules.difference(&test_only).cloned().collect())
}

fn has_rust(dir: &Path) -> std::io::Result<bool> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "rs") || (path.is_dir() && has_rust(&path)?) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Names of `mod x;` declarations behind `#[cfg(test)]`.
fn test_only_modules(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut after_cfg_test = false;
    for line in source.lines() {
        let line = line.trim();
        if line == "#[cfg(test)]" {
            after_cfg_test = true;
            continue;
        }
        if after_cfg_test
            && let Some(name) = line.strip_prefix("mod ").or_else(|| line.strip_prefix("pub(crate) mod "))
            && let Some(name) = name.strip_suffix(';')
        {
            names.push(name.trim().to_string());
        }
        if !line.starts_with("#[") {
            after_cfg_test = false;
        }
    }
    names
}

/// Checks one folder's order against its files; `root` is the workspace root.
///
/// # Errors
/// An I/O error reading the folder.
pub fn check_order(root: &Path, order: &Order) -> std::io::Result<Vec<Problem>> {
    let dir = root.join(&order.dir);
    let modules = modules_of(&dir)?;
    let mut problems = Vec::new();
    for module in &modules {
        if order.layer_of(module).is_none() {
            problems.push(Problem::Unlisted { dir: order.dir.clone(), module: module.clone() });
        }
    }
    for module in order.layers.iter().flatten() {
        if !modules.contains(module) {
            problems.push(Problem::Missing { dir: order.dir.clone(), module: module.clone() });
        }
    }
    // The folder's module path below its source root, e.g. ["cells"] for broadphase/src/cells.
    let prefix = module_prefix(&dir);
    let reexported = reexports(&dir, &modules)?;
    for module in &modules {
        let Some(from_layer) = order.layer_of(module) else { continue };
        for (file, module_path) in files_of(&dir, module, &prefix)? {
            let source = fs::read_to_string(&file)?;
            for (line, target) in references(&strip_tests(&source), &module_path) {
                if target.len() <= prefix.len() || target[..prefix.len()] != prefix[..] {
                    continue;
                }
                let named = &target[prefix.len()];
                let to = reexported.get(named).unwrap_or(named);
                if to == module || !modules.contains(to) {
                    continue;
                }
                let Some(to_layer) = order.layer_of(to) else { continue };
                if to_layer >= from_layer {
                    let shown = file.strip_prefix(root).unwrap_or(&file).display().to_string();
                    problems.push(Problem::Upward {
                        dir: order.dir.clone(),
                        file: shown,
                        line,
                        from: module.clone(),
                        to: to.clone(),
                    });
                }
            }
        }
    }
    Ok(problems)
}

/// The items a folder's parent file (`lib.rs`, `main.rs`, `mod.rs` or the `name.rs` beside the
/// folder) brings in from its children with `use`, by the name they are seen under, mapped to
/// the child module: `pub use aabb::Aabb;` maps `Aabb` to `aabb`. A child reaching such an item
/// through its parent (`crate::Aabb`) uses that module.
pub fn reexports(dir: &Path, modules: &BTreeSet<String>) -> std::io::Result<BTreeMap<String, String>> {
    let mut candidates = vec![dir.join("lib.rs"), dir.join("main.rs"), dir.join("mod.rs")];
    if let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) {
        candidates.push(parent.join(format!("{}.rs", name.to_string_lossy())));
    }
    let mut map = BTreeMap::new();
    for file in candidates {
        if !file.is_file() || (file.ends_with("main.rs") && dir.join("lib.rs").is_file()) {
            continue;
        }
        let source = strip_tests(&fs::read_to_string(&file)?);
        // `use` statements may span lines: join each one up to its `;`.
        let flat = source.replace('\n', " ");
        for statement in flat.split(';') {
            let statement = statement.trim();
            let Some(at) = statement.find("use ") else { continue };
            let head = &statement[..at];
            if !(head.is_empty() || head.ends_with("pub ") || head.ends_with(") ") || head.ends_with(']')) {
                continue;
            }
            let chars: Vec<char> = statement[at + 4..].chars().collect();
            let mut leaves = Vec::new();
            use_tree(&chars, 0, Vec::new(), &mut leaves);
            for (mut path, alias) in leaves {
                if path.first().is_some_and(|p| p == "self" || p == "crate") {
                    path.remove(0);
                }
                let (Some(first), Some(last)) = (path.first(), path.last()) else { continue };
                if path.len() >= 2 && modules.contains(first) {
                    map.insert(alias.unwrap_or_else(|| last.clone()), first.clone());
                }
            }
        }
    }
    Ok(map)
}

/// The module path from the `src` folder above `dir` to `dir`.
fn module_prefix(dir: &Path) -> Vec<String> {
    let mut prefix = Vec::new();
    let mut at = dir.to_path_buf();
    while at.file_name().is_some_and(|n| n != "src") {
        prefix.push(at.file_name().unwrap_or_default().to_string_lossy().into_owned());
        if !at.pop() {
            break;
        }
    }
    prefix.reverse();
    prefix
}

/// Every file of a module with its module path (`mod.rs` and `x.rs` name their folder's
/// module; `x.rs` beside a folder `x/` is the same module).
fn files_of(dir: &Path, module: &str, prefix: &[String]) -> std::io::Result<Vec<(PathBuf, Vec<String>)>> {
    let mut path = prefix.to_vec();
    path.push(module.to_string());
    let mut files = Vec::new();
    let file = dir.join(format!("{module}.rs"));
    if file.is_file() {
        files.push((file, path.clone()));
    }
    let sub = dir.join(module);
    if sub.is_dir() {
        collect(&sub, &path, &mut files)?;
    }
    Ok(files)
}

fn collect(dir: &Path, path: &[String], files: &mut Vec<(PathBuf, Vec<String>)>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for entry in entries {
        let name = entry.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if entry.is_dir() {
            let mut sub = path.to_vec();
            sub.push(name);
            collect(&entry, &sub, files)?;
        } else if let Some(stem) = name.strip_suffix(".rs") {
            if stem == "tests" {
                continue;
            }
            let mut module_path = path.to_vec();
            if stem != "mod" {
                module_path.push(stem.to_string());
            }
            files.push((entry, module_path));
        }
    }
    Ok(())
}

/// The source with comments and `#[cfg(test)]` items blanked (lines kept, for numbering).
pub fn strip_tests(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut skipping_depth: Option<i64> = None;
    let mut cfg_test = false;
    let mut in_block_comment = false;
    for raw in source.lines() {
        let mut line = String::new();
        let mut chars = raw.chars().peekable();
        let mut in_string = false;
        while let Some(c) = chars.next() {
            if in_block_comment {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    in_block_comment = false;
                }
                continue;
            }
            if in_string {
                if c == '\\' {
                    chars.next();
                } else if c == '"' {
                    in_string = false;
                }
                continue;
            }
            match c {
                '"' => in_string = true,
                '/' if chars.peek() == Some(&'/') => break,
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    in_block_comment = true;
                }
                _ => line.push(c),
            }
        }
        let trimmed = line.trim();
        if let Some(depth) = skipping_depth.as_mut() {
            *depth += braces(&line);
            if *depth <= 0 {
                skipping_depth = None;
            }
            out.push('\n');
            continue;
        }
        if trimmed == "#[cfg(test)]" {
            cfg_test = true;
            out.push('\n');
            continue;
        }
        if cfg_test && !trimmed.is_empty() && !trimmed.starts_with("#[") {
            cfg_test = false;
            let depth = braces(&line);
            if depth > 0 {
                skipping_depth = Some(depth);
            }
            out.push('\n');
            continue;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn braces(line: &str) -> i64 {
    line.chars().map(|c| i64::from(c == '{') - i64::from(c == '}')).sum()
}

/// Every path through `crate::`, `$crate::`, `super::` or `self::` in `source`, resolved to an
/// absolute module path from the crate root, with its line; `here` is the module path of the
/// file. Grouped imports (`use crate::{a, b::c}`) give one path per leaf.
pub fn references(source: &str, here: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    for (index, line) in source.lines().enumerate() {
        let bytes: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < bytes.len() {
            let starts_word = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
            if starts_word && let Some((base, after)) = anchor(&bytes, i, here) {
                let mut leaves = Vec::new();
                let end = use_tree(&bytes, after, base, &mut leaves);
                for (path, _) in leaves {
                    found.push((index + 1, path));
                }
                i = end.max(i + 1);
                continue;
            }
            i += 1;
        }
    }
    found
}

/// If a path anchor starts at `i`, the module path it names and the index after its `::`.
fn anchor(chars: &[char], i: usize, here: &[String]) -> Option<(Vec<String>, usize)> {
    let rest: String = chars[i..].iter().take(8).collect();
    if rest.starts_with("crate::") {
        return Some((Vec::new(), i + 7));
    }
    if rest.starts_with("self::") {
        return Some((here.to_vec(), i + 6));
    }
    if rest.starts_with("super::") {
        let mut base = here.to_vec();
        let mut at = i;
        while chars[at..].iter().take(7).collect::<String>() == "super::" {
            base.pop()?;
            at += 7;
        }
        return Some((base, at));
    }
    None
}

/// A leaf of a use tree: the full path and the name it is renamed to, if any.
type Leaf = (Vec<String>, Option<String>);

/// Reads a use tree (`a::b`, `a::{b, c::d}`, `*`) from `at`; pushes each leaf's full path.
fn use_tree(chars: &[char], mut at: usize, mut base: Vec<String>, out: &mut Vec<Leaf>) -> usize {
    loop {
        while at < chars.len() && chars[at] == ' ' {
            at += 1;
        }
        if at < chars.len() && chars[at] == '{' {
            at += 1;
            loop {
                at = use_tree(chars, at, base.clone(), out);
                while at < chars.len() && (chars[at] == ' ' || chars[at] == ',') {
                    at += 1;
                }
                if at >= chars.len() || chars[at] == '}' {
                    return (at + 1).min(chars.len());
                }
            }
        }
        let start = at;
        while at < chars.len() && (chars[at].is_alphanumeric() || chars[at] == '_') {
            at += 1;
        }
        if at == start {
            out.push((base, None));
            return at;
        }
        let word: String = chars[start..at].iter().collect();
        let more = chars[at..].iter().take(2).collect::<String>() == "::";
        if word != "self" || base.is_empty() {
            base.push(word);
        }
        if more {
            at += 2;
            continue;
        }
        // A leaf, maybe renamed: `a::B as C`.
        let rest: String = chars[at..].iter().collect();
        let mut alias = None;
        if let Some(renamed) = rest.strip_prefix(" as ") {
            let name: String = renamed.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            at += 4 + name.len();
            alias = Some(name);
        }
        out.push((base, alias));
        return at;
    }
}

/// Runs every order of the document at `root/docs/architecture.md` and returns the problems,
/// plus a problem for every source folder with two or more modules that has no order.
///
/// # Errors
/// The document does not parse, or a folder cannot be read.
pub fn check_workspace(root: &Path) -> Result<Vec<String>, String> {
    let doc =
        fs::read_to_string(root.join("docs/architecture.md")).map_err(|e| format!("docs/architecture.md: {e}"))?;
    let orders = parse_orders(&doc)?;
    let mut problems = Vec::new();
    let mut covered = BTreeMap::new();
    for order in &orders {
        covered.insert(order.dir.clone(), order.line);
        let found = check_order(root, order).map_err(|e| format!("{}: {e}", order.dir))?;
        problems.extend(found.iter().map(ToString::to_string));
    }
    for group in ["crates", "apps"] {
        let mut packages: Vec<PathBuf> = fs::read_dir(root.join(group))
            .map_err(|e| format!("{group}: {e}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        packages.sort();
        for package in packages {
            let src = package.join("src");
            if src.is_dir() {
                uncovered(root, &src, &covered, &mut problems).map_err(|e| format!("{}: {e}", src.display()))?;
            }
        }
    }
    Ok(problems)
}

fn uncovered(
    root: &Path,
    dir: &Path,
    covered: &BTreeMap<String, usize>,
    problems: &mut Vec<String>,
) -> std::io::Result<()> {
    let modules = modules_of(dir)?;
    let relative = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
    if modules.len() >= 2 && !covered.contains_key(&relative) {
        problems.push(format!(
            "{relative}: {} modules ({}) but no line in docs/architecture.md's ```modules block",
            modules.len(),
            modules.iter().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    for module in &modules {
        let sub = dir.join(module);
        if sub.is_dir() {
            uncovered(root, &sub, covered, problems)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_layers_and_refuses_bad_lines() {
        let doc = "text\n```modules\ncrates/x/src: a, b → c\n\n# note\ncrates/x/src/c: d → e\n```\nafter";
        let orders = parse_orders(doc).unwrap();
        assert_eq!(orders.len(), 2);
        assert_eq!(orders[0].layers, vec![names(&["a", "b"]), names(&["c"])]);
        assert_eq!(orders[0].line, 3);
        assert_eq!(orders[1].layer_of("e"), Some(1));
        assert!(parse_orders("```modules\nno colon\n```").is_err());
        assert!(parse_orders("```modules\nx: a → a\n```").is_err());
        assert!(parse_orders("```modules\nx: a → → b\n```").is_err());
        assert!(parse_orders("no block").is_err());
    }

    #[test]
    fn resolves_crate_super_self_and_groups() {
        let here = names(&["game", "combat"]);
        let refs =
            references("use super::{entities::Body, frame::{ms, X}};\nlet x = crate::sound::Effect::Hit;", &here);
        let paths: Vec<Vec<String>> = refs.iter().map(|(_, p)| p.clone()).collect();
        assert!(paths.contains(&names(&["game", "entities", "Body"])));
        assert!(paths.contains(&names(&["game", "frame", "ms"])));
        assert!(paths.contains(&names(&["game", "frame", "X"])));
        assert!(paths.contains(&names(&["sound", "Effect", "Hit"])));
        assert_eq!(refs.last().unwrap().0, 2);
        let refs = references("impl $crate::index::SpatialIndex for X {}", &names(&["cells"]));
        assert_eq!(refs[0].1, names(&["index", "SpatialIndex"]));
        let refs = references("use super::super::a::B;", &names(&["x", "y"]));
        assert_eq!(refs[0].1, names(&["a", "B"]));
        // Not an anchor: a longer word or a path segment that only ends in `crate`.
        assert!(references("let my_crate::x = foo::crate::y;", &here).is_empty());
    }

    #[test]
    fn maps_reexported_items_to_their_modules() {
        let root = std::env::temp_dir().join(format!("lore-checks-re-{}", std::process::id()));
        fs::create_dir_all(&root).unwrap();
        fs::write(
            root.join("lib.rs"),
            "mod a;\nmod b;\npub use a::{Alpha, inner::Deep as Renamed};\n#[cfg(feature = \"x\")]\npub use self::b::Beta;\nuse crate::b::Gamma;\n",
        )
        .unwrap();
        let modules: BTreeSet<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let map = reexports(&root, &modules).unwrap();
        fs::remove_dir_all(&root).unwrap();
        let expected: BTreeMap<String, String> = [("Alpha", "a"), ("Renamed", "a"), ("Beta", "b"), ("Gamma", "b")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(map, expected);
    }

    #[test]
    fn strips_comments_strings_and_test_modules() {
        let source = "use crate::a; // crate::b\n/// [`crate::c`]\nlet s = \"crate::d\";\n#[cfg(test)]\nmod tests {\n    use crate::e;\n}\nuse crate::f;\n";
        let stripped = strip_tests(source);
        let refs: Vec<String> = references(&stripped, &[]).into_iter().map(|(_, p)| p.join("::")).collect();
        assert_eq!(refs, vec!["a".to_string(), "f".to_string()]);
        assert_eq!(stripped.lines().count(), source.lines().count());
    }

    #[test]
    fn flags_upward_same_layer_unlisted_and_missing() {
        let root = std::env::temp_dir().join(format!("lore-checks-{}", std::process::id()));
        let src = root.join("crates/x/src");
        fs::create_dir_all(src.join("deep")).unwrap();
        fs::write(src.join("lib.rs"), "mod low; mod mid; mod high; mod deep;\n#[cfg(test)]\nmod tests;\n").unwrap();
        fs::write(src.join("low.rs"), "use crate::high::Thing;\n").unwrap();
        fs::write(src.join("mid.rs"), "use crate::low::A;\nuse super::side::B;\n").unwrap();
        fs::write(src.join("high.rs"), "use crate::{low::A, mid::B};\n").unwrap();
        fs::write(src.join("tests.rs"), "use crate::high::Thing;\n").unwrap();
        fs::write(src.join("deep/mod.rs"), "use crate::mid::B;\n").unwrap();
        let order = Order {
            dir: "crates/x/src".into(),
            layers: vec![names(&["low"]), names(&["mid", "side"]), names(&["high"])],
            line: 1,
        };
        let problems = check_order(&root, &order).unwrap();
        fs::remove_dir_all(&root).unwrap();
        let upward: Vec<(String, String)> = problems
            .iter()
            .filter_map(|p| match p {
                Problem::Upward { from, to, .. } => Some((from.clone(), to.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(upward, vec![("low".to_string(), "high".to_string())]);
        assert!(problems.contains(&Problem::Unlisted { dir: "crates/x/src".into(), module: "deep".into() }));
        assert!(problems.contains(&Problem::Missing { dir: "crates/x/src".into(), module: "side".into() }));
        assert_eq!(problems.len(), 3, "{problems:?}");
    }
}
