//! Layers point one way: no import cycle between the modules of a crate.
//!
//! Every crate of the workspace is read from its root file (`lib.rs`/`main.rs`) through its
//! `mod` declarations (`#[cfg(test)]` modules and inline `mod x { .. }` bodies are left out: tests
//! are not layers). A module depends on another when its code names an item of that module by
//! path (`crate::a::b::Item`, `super::x`, `self::child::f`, a child module's name), in `use`
//! declarations and in code alike. A public re-export (`pub use inner::Item`) is a facade, not a
//! dependency: a path through it is followed to where the item is defined. A `mod` declaration
//! is containment, not a dependency, and so is a path between a module and one of its ancestors
//! (a `mod.rs` that defines what its children share and calls into them). A cycle is a strongly
//! connected set of two or more modules.
//!
//! Run it with `cargo test -p visa --test module_cycles -- --nocapture` to see the dependency
//! count of each crate. `KNOWN_CYCLES` lists the cycles that are still to be broken, each with
//! its crate (none now): the test fails on any other cycle, and on a listed one that no longer
//! exists (so that the list only shrinks).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Cycles not yet broken, as the crate and the sorted module paths of each strongly connected
/// set. Issue 19 (item 2) broke every cycle there was, so the list is empty; it only shrinks: a
/// new cycle is to be broken by moving code to the right layer, not listed here.
const KNOWN_CYCLES: &[(&str, &[&str])] = &[];

/// The crates checked: (name, root file relative to the repository).
const CRATES: &[(&str, &str)] = &[
    ("visa-codegen", "codegen/src/lib.rs"),
    ("visa-isa", "isa/src/lib.rs"),
    ("visa-macros", "macros/src/lib.rs"),
    ("visa-runtime", "runtime/src/lib.rs"),
    ("visa-cli", "cli/src/main.rs"),
    ("visa-testutil", "testutil/src/lib.rs"),
    ("visa", "src/lib.rs"),
];

/// A module path from the crate root (`[]` is the root, `["emit", "lower"]` is `emit::lower`).
type ModPath = Vec<String>;

#[derive(Default)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    /// `pub use` re-exports: the name they make visible here -> the path they name (absolute).
    reexports: BTreeMap<String, ModPathAndItem>,
    /// Every path the module's code names, absolute (item names included).
    uses: Vec<Vec<String>>,
}

type ModPathAndItem = Vec<String>;

fn display(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_string()
    } else {
        path.join("::")
    }
}

/// Reads a crate's module tree from its root file.
fn read_crate(root_file: &Path) -> BTreeMap<ModPath, Module> {
    let mut modules = BTreeMap::new();
    let mut pending = vec![(Vec::new(), root_file.to_path_buf())];
    while let Some((path, file)) = pending.pop() {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let tokens: TokenStream = text
            .parse()
            .unwrap_or_else(|e| panic!("{} does not lex: {e:?}", file.display()));
        let mut module = Module {
            file: file.clone(),
            ..Module::default()
        };
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut declared = Vec::new();
        scan(&tokens, &path, &mut module, &mut declared);
        for (name, explicit) in declared {
            let child_file = child_file(&file, &path, &name, explicit.as_deref());
            let mut child_path = path.clone();
            child_path.push(name.clone());
            module.children.insert(name);
            pending.push((child_path, child_file));
        }
        modules.insert(path, module);
    }
    modules
}

/// Where `mod name;` declared in `file` (module `path`) lives.
fn child_file(file: &Path, path: &ModPath, name: &str, explicit: Option<&str>) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new("."));
    if let Some(explicit) = explicit {
        return dir.join(explicit);
    }
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    // `lib.rs`, `main.rs` and `mod.rs` own their directory; `a.rs` owns `a/`.
    let base = if path.is_empty() || stem == "mod" {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.is_file() {
        flat
    } else {
        base.join(name).join("mod.rs")
    }
}

fn is_punct(tt: Option<&TokenTree>, ch: char) -> bool {
    matches!(tt, Some(TokenTree::Punct(p)) if p.as_char() == ch)
}

/// `::` at `tokens[i]`.
fn is_path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && is_punct(tokens.get(i + 1), ':')
}

/// An outer attribute `#[...]` at `tokens[i]`: its bracket group.
fn attribute(tokens: &[TokenTree], i: usize) -> Option<&proc_macro2::Group> {
    if !is_punct(tokens.get(i), '#') {
        return None;
    }
    match tokens.get(i + 1) {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => Some(g),
        _ => None,
    }
}

/// Walks a token list: collects `mod` declarations, `use` trees and other paths.
fn scan(
    tokens: &[TokenTree],
    here: &ModPath,
    module: &mut Module,
    declared: &mut Vec<(String, Option<String>)>,
) {
    let mut i = 0;
    // Attributes seen just before the current item.
    let mut cfg_test = false;
    let mut path_attr: Option<String> = None;
    let mut public = false;
    while i < tokens.len() {
        if let Some(group) = attribute(tokens, i) {
            let text = group.stream().to_string().replace(' ', "");
            if text.starts_with("cfg(") && text.contains("test") && !text.contains("not(test") {
                cfg_test = true;
            }
            if let Some(rest) = text.strip_prefix("path=") {
                path_attr = Some(rest.trim_matches('"').to_string());
            }
            i += 2;
            continue;
        }
        match &tokens[i] {
            TokenTree::Ident(ident) if ident == "pub" => {
                public = true;
                i += 1;
                // `pub(crate)`, `pub(super)`, `pub(in path)`: a visibility, not a path.
                if matches!(tokens.get(i), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
                {
                    i += 1;
                }
                continue;
            }
            TokenTree::Ident(ident) if ident == "mod" => {
                let name = match tokens.get(i + 1) {
                    Some(TokenTree::Ident(n)) => n.to_string(),
                    _ => String::new(),
                };
                if is_punct(tokens.get(i + 2), ';') {
                    if !cfg_test && !name.is_empty() {
                        declared.push((name, path_attr.take()));
                    }
                    i += 3;
                } else {
                    // An inline module: not a layer of its own (tests, small helpers).
                    i += 3;
                }
                cfg_test = false;
                path_attr = None;
                public = false;
                continue;
            }
            TokenTree::Ident(ident) if ident == "use" => {
                let end = tokens[i..]
                    .iter()
                    .position(|t| is_punct(Some(t), ';'))
                    .map_or(tokens.len(), |p| i + p);
                if !cfg_test {
                    let mut trees = Vec::new();
                    use_tree(&tokens[i + 1..end], Vec::new(), &mut trees);
                    for (path, rename) in trees {
                        let Some(absolute) = absolute(&path, here) else {
                            continue;
                        };
                        if public {
                            // A re-export: remembered, followed when a path goes through it.
                            let name = rename.or_else(|| path.last().cloned());
                            if let Some(name) = name.filter(|n| n != "self" && n != "*") {
                                module.reexports.insert(name, absolute);
                            }
                        } else {
                            module.uses.push(absolute);
                        }
                    }
                }
                i = end + 1;
                cfg_test = false;
                public = false;
                continue;
            }
            // Code written for another crate (`quote! { crate::desc::X }`): not a path of this one.
            TokenTree::Ident(ident)
                if matches!(
                    ident.to_string().as_str(),
                    "quote" | "quote_spanned" | "parse_quote"
                ) && is_punct(tokens.get(i + 1), '!') =>
            {
                i += 3;
                continue;
            }
            TokenTree::Ident(ident) => {
                // A path `a::b::c` in code.
                let mut path = vec![ident.to_string()];
                let mut j = i + 1;
                while is_path_sep(tokens, j) {
                    match tokens.get(j + 2) {
                        Some(TokenTree::Ident(next)) => {
                            path.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                let preceded_by_dollar = i > 0 && is_punct(tokens.get(i - 1), '$');
                let preceded_by_sep = i >= 2 && is_path_sep(tokens, i - 2);
                if !cfg_test
                    && !preceded_by_dollar
                    && !preceded_by_sep
                    && path.len() > 1
                    && let Some(absolute) = absolute(&path, here)
                {
                    module.uses.push(absolute);
                }
                i = j;
                continue;
            }
            TokenTree::Group(group) => {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                if !cfg_test {
                    scan(&inner, here, module, declared);
                }
            }
            TokenTree::Punct(p) if p.as_char() == ';' => {
                cfg_test = false;
                public = false;
            }
            _ => {}
        }
        // An item with a body (`fn f() { .. }`, `impl X { .. }`) ends at its closing brace.
        if matches!(&tokens[i], TokenTree::Group(g) if g.delimiter() == Delimiter::Brace) {
            cfg_test = false;
            public = false;
        }
        i += 1;
    }
}

/// Expands a `use` tree (`a::{b, c::d as e, f::*}`) into paths, each with its rename.
fn use_tree(
    tokens: &[TokenTree],
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix;
    let mut i = 0;
    // A leading `::` (`use ::std::..`) names an external crate.
    if is_path_sep(tokens, 0) {
        return;
    }
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Ident(ident) if ident == "as" => {
                let rename = match tokens.get(i + 1) {
                    Some(TokenTree::Ident(n)) => Some(n.to_string()),
                    _ => None,
                };
                out.push((path, rename));
                return;
            }
            TokenTree::Ident(ident) => {
                path.push(ident.to_string());
                i += 1;
            }
            TokenTree::Punct(p) if p.as_char() == '*' => {
                path.push("*".to_string());
                i += 1;
            }
            TokenTree::Punct(p) if p.as_char() == ':' => i += 1,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for part in inner.split(|t| is_punct(Some(t), ',')) {
                    if !part.is_empty() {
                        use_tree(part, path.clone(), out);
                    }
                }
                return;
            }
            _ => i += 1,
        }
    }
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
    }
    if !path.is_empty() {
        out.push((path, None));
    }
}

/// The absolute form of a path named in module `here`, or `None` when it names no module of the
/// crate (an external crate, a local variable, a type's associated item).
fn absolute(path: &[String], here: &ModPath) -> Option<Vec<String>> {
    let first = path.first()?;
    let (mut base, rest) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (here.clone(), &path[1..]),
        "super" => {
            let mut base = here.clone();
            let mut k = 0;
            while path.get(k).is_some_and(|s| s == "super") {
                base.pop()?;
                k += 1;
            }
            (base, &path[k..])
        }
        // Maybe a child module named directly (`lower::lower(..)` after `mod lower;`): children
        // are not known until the whole tree is read, so the path is kept and checked against
        // the module tree in `resolve`.
        _ if first.starts_with(char::is_lowercase) => {
            let mut relative = here.clone();
            relative.push("\u{0}relative".to_string());
            relative.extend(path.iter().cloned());
            return Some(relative);
        }
        _ => return None,
    };
    base.push("\u{0}absolute".to_string());
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The module a recorded path lands in: the deepest module it walks through, following public
/// re-exports to the item's definition. `None` when the path does not start in the crate.
fn resolve(
    modules: &BTreeMap<ModPath, Module>,
    recorded: &[String],
    depth: usize,
) -> Option<ModPath> {
    let marker = recorded.iter().position(|s| s.starts_with('\u{0}'))?;
    let mut at: ModPath = recorded[..marker].to_vec();
    let relative = recorded[marker] == "\u{0}relative";
    let rest = &recorded[marker + 1..];
    if relative {
        // Only a path whose first segment is a child module of `at` is a module path; anything
        // else is a local name, a primitive type's item or an external crate.
        let first = rest.first()?;
        if !modules.get(&at)?.children.contains(first) {
            return None;
        }
    }
    for (k, segment) in rest.iter().enumerate() {
        let module = modules.get(&at)?;
        if module.children.contains(segment) {
            at.push(segment.clone());
            continue;
        }
        if let Some(target) = module.reexports.get(segment)
            && depth < 8
        {
            let mut followed = target.clone();
            followed.extend(rest[k + 1..].iter().cloned());
            return resolve(modules, &followed, depth + 1).or(Some(at));
        }
        break;
    }
    Some(at)
}

/// Tarjan's strongly connected components; returns those with two or more modules.
fn cycles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(targets) = s.edges.get(v) {
            for w in targets {
                let Some((w, _)) = s.edges.get_key_value(w) else {
                    continue;
                };
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out.sort();
    state.out
}

/// The module dependency edges of a crate, each with one path that causes it.
fn dependencies(
    modules: &BTreeMap<ModPath, Module>,
) -> BTreeMap<ModPath, BTreeMap<ModPath, String>> {
    let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
    for (path, module) in modules {
        let entry = edges.entry(path.clone()).or_default();
        for recorded in &module.uses {
            let Some(target) = resolve(modules, recorded, 0) else {
                continue;
            };
            // A module and its ancestors are one unit here: a `mod.rs` that defines what its
            // children share and calls into them is the usual shape of a Rust module.
            if !target.starts_with(path) && !path.starts_with(&target) {
                let shown: Vec<&str> = recorded
                    .iter()
                    .filter(|s| !s.starts_with('\u{0}'))
                    .map(String::as_str)
                    .collect();
                entry
                    .entry(target)
                    .or_insert_with(|| format!("{} ({})", shown.join("::"), module.file.display()));
            }
        }
    }
    edges
}

#[test]
fn no_import_cycles_between_modules() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut found_known = BTreeSet::new();
    for (name, root) in CRATES {
        let modules = read_crate(&repo.join(root));
        let edges = dependencies(&modules);
        let plain: BTreeMap<ModPath, BTreeSet<ModPath>> = edges
            .iter()
            .map(|(k, v)| (k.clone(), v.keys().cloned().collect()))
            .collect();
        let count: usize = plain.values().map(BTreeSet::len).sum();
        println!("{name}: {} modules, {count} dependencies", modules.len());
        for component in cycles(&plain) {
            let names: Vec<String> = component.iter().map(|m| display(m)).collect();
            let known = KNOWN_CYCLES.iter().any(|(krate, listed)| {
                krate == name && listed.iter().copied().eq(names.iter().map(String::as_str))
            });
            if known {
                found_known.insert((name.to_string(), names.clone()));
                println!("  known cycle: {}", names.join(", "));
                continue;
            }
            let mut why = Vec::new();
            for from in &component {
                for (to, cause) in &edges[from] {
                    if component.contains(to) {
                        why.push(format!("    {} -> {}: {cause}", display(from), display(to)));
                    }
                }
            }
            problems.push(format!(
                "{name}: cycle between {}\n{}",
                names.join(", "),
                why.join("\n")
            ));
        }
    }
    for (krate, listed) in KNOWN_CYCLES {
        let names: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
        if !found_known.contains(&(krate.to_string(), names)) {
            problems.push(format!(
                "{krate}: the known cycle {} is gone: remove it from KNOWN_CYCLES",
                listed.join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
