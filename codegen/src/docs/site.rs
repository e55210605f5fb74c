//! The site model: one entry per document with its page name, category and links to related
//! instructions. Both renderers (HTML and markdown) read this, so they show the same content.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::{category, text};
use crate::model::Document;

/// How an instruction relates to another one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RelationKind {
    /// The other document describes the opcode this sub-operation belongs to.
    ParentOpcode,
    /// The other instruction is a sub-operation of this opcode.
    SubOperation,
    /// Both are sub-operations of the same opcode (e.g. two operations under one parent).
    SameFamily,
    /// Both encode with the same opcode value and neither has a sub-operation.
    SameOpcode,
    /// This instruction's text names the other one.
    Mentions,
    /// The other instruction's text names this one.
    MentionedBy,
}

impl RelationKind {
    pub fn heading(self) -> &'static str {
        match self {
            Self::ParentOpcode => "Parent opcode",
            Self::SubOperation => "Sub-operations",
            Self::SameFamily => "Same sub-operation family",
            Self::SameOpcode => "Same opcode value",
            Self::Mentions => "Mentioned in this page",
            Self::MentionedBy => "Pages that mention this instruction",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Relation {
    pub kind: RelationKind,
    /// Index into [`Site::entries`].
    pub target: usize,
}

/// One instruction of the site.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub doc: &'a Document,
    /// The instruction name (opcode names joined by `_`, or the file stem if none).
    pub name: String,
    /// The page's file stem: a unique, file-name-safe form of `name`.
    pub page: String,
    pub category: String,
    pub related: Vec<Relation>,
}

impl Entry<'_> {
    /// The value of the first opcode (the one that starts the encoding).
    pub fn opcode(&self) -> Option<u32> {
        self.doc.opcodes.first().map(|o| o.value)
    }

    /// The value of the sub-operation byte, if the instruction has one.
    pub fn sub_op(&self) -> Option<u32> {
        self.doc.opcodes.get(1).map(|o| o.value)
    }

    /// `0x78`, or `0x4e / 0x03` for a sub-operation.
    pub fn opcode_text(&self) -> String {
        self.doc
            .opcodes
            .iter()
            .map(|o| format!("0x{:02x}", o.value))
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

#[derive(Debug, Clone)]
pub struct Site<'a> {
    /// Sorted by name.
    pub entries: Vec<Entry<'a>>,
    /// The guide's markdown, when the site has a guide page (`guide.html` / `guide.md`).
    pub guide: Option<&'a str>,
    /// The other markdown pages: (file stem, title), in the order the index lists them.
    pub articles: Vec<(String, String)>,
    /// Lower-case mnemonic -> entry index: every mnemonic a syntax template accepts (the first
    /// entry in name order wins).
    mnemonics: HashMap<String, usize>,
}

impl<'a> Site<'a> {
    /// The site of `docs` with an optional guide page and further markdown pages; instruction
    /// pages keep clear of the articles' file stems.
    pub fn with_pages(
        docs: &'a [Document],
        guide: Option<&'a str>,
        articles: &[super::Article<'_>],
    ) -> Self {
        let articles: Vec<(String, String)> = articles
            .iter()
            .map(|a| (article_page(a.page), super::guide::title(a.markdown)))
            .collect();
        let reserved: Vec<&str> = articles.iter().map(|(page, _)| page.as_str()).collect();
        let mut site = Self::with_reserved(docs, &reserved);
        site.guide = guide;
        site.articles = articles;
        site
    }

    pub fn new(docs: &'a [Document]) -> Self {
        Self::with_reserved(docs, &[])
    }

    fn with_reserved(docs: &'a [Document], reserved: &[&str]) -> Self {
        let mut entries: Vec<Entry<'a>> = docs
            .iter()
            .map(|doc| Entry {
                doc,
                name: instruction_name(doc),
                page: String::new(),
                category: category::category(doc),
                related: Vec::new(),
            })
            .collect();
        entries.sort_by(|a, b| a.name.cmp(&b.name).then(a.doc.file.cmp(&b.doc.file)));
        assign_pages(&mut entries, reserved);
        let words: Vec<HashSet<&str>> = entries.iter().map(|e| words_of(e.doc)).collect();
        let relations: Vec<Vec<Relation>> = (0..entries.len())
            .map(|i| relations(&entries, &words, i))
            .collect();
        for (entry, related) in entries.iter_mut().zip(relations) {
            entry.related = related;
        }
        let mut mnemonics = HashMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let templates = entry.doc.syntax.iter().filter_map(|l| l.template.as_ref());
            for mnemonic in templates.flat_map(|t| t.mnemonics()) {
                mnemonics.entry(mnemonic.to_ascii_lowercase()).or_insert(i);
            }
        }
        Site {
            entries,
            guide: None,
            articles: Vec::new(),
            mnemonics,
        }
    }

    /// The entry whose syntax accepts `mnemonic` (any case).
    pub fn by_mnemonic(&self, mnemonic: &str) -> Option<&Entry<'a>> {
        let index = self.mnemonics.get(&mnemonic.to_ascii_lowercase())?;
        self.entries.get(*index)
    }

    /// Categories in display order (alphabetical, "Other" last) with their entries' indices.
    pub fn categories(&self) -> Vec<(&str, Vec<usize>)> {
        let names: BTreeSet<&str> = self.entries.iter().map(|e| e.category.as_str()).collect();
        let mut names: Vec<&str> = names.into_iter().collect();
        names.sort_by_key(|n| (*n == category::OTHER, *n));
        names
            .into_iter()
            .map(|name| {
                let members = (0..self.entries.len())
                    .filter(|&i| self.entries.get(i).is_some_and(|e| e.category == name))
                    .collect();
                (name, members)
            })
            .collect()
    }

    /// Entry indices sorted by opcode value, then sub-operation value, then name.
    pub fn by_value(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| {
            self.entries
                .get(i)
                .map(|e| (e.opcode(), e.sub_op(), e.name.clone()))
        });
        order
    }
}

/// The file stem of the guide page.
pub const GUIDE_PAGE: &str = "guide";

fn instruction_name(doc: &Document) -> String {
    let name = doc.full_name();
    if !name.is_empty() {
        return name;
    }
    std::path::Path::new(&doc.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The file stem of an article's page: its slug, kept clear of `index` and `guide`.
pub fn article_page(page: &str) -> String {
    let slug = text::slug(page);
    if ["index", GUIDE_PAGE, ""].contains(&slug.as_str()) {
        format!("page-{slug}")
    } else {
        slug
    }
}

/// Gives every entry a unique page stem; `index`, `guide` and the articles' stems are reserved
/// and names are compared without case so that pages do not collide on case-insensitive file
/// systems.
fn assign_pages(entries: &mut [Entry<'_>], reserved: &[&str]) {
    let mut taken: HashSet<String> = HashSet::from(["index".to_string(), GUIDE_PAGE.to_string()]);
    taken.extend(reserved.iter().map(|page| page.to_ascii_lowercase()));
    for entry in entries.iter_mut() {
        let base = text::slug(&entry.name);
        let mut page = base.clone();
        let mut n = 2;
        while taken.contains(&page.to_ascii_lowercase()) {
            page = format!("{base}-{n}");
            n += 1;
        }
        taken.insert(page.to_ascii_lowercase());
        entry.page = page;
    }
}

fn relations(entries: &[Entry<'_>], words: &[HashSet<&str>], me: usize) -> Vec<Relation> {
    let (Some(this), Some(my_words)) = (entries.get(me), words.get(me)) else {
        return Vec::new();
    };
    let mut out = BTreeSet::new();
    for ((other_index, other), other_words) in entries.iter().enumerate().zip(words) {
        if other_index == me {
            continue;
        }
        if this.opcode().is_some() && this.opcode() == other.opcode() {
            let kind = match (this.sub_op().is_some(), other.sub_op().is_some()) {
                (true, true) => RelationKind::SameFamily,
                (true, false) => RelationKind::ParentOpcode,
                (false, true) => RelationKind::SubOperation,
                (false, false) => RelationKind::SameOpcode,
            };
            out.insert(Relation {
                kind,
                target: other_index,
            });
        }
        if other.name != this.name && my_words.contains(other.name.as_str()) {
            out.insert(Relation {
                kind: RelationKind::Mentions,
                target: other_index,
            });
        }
        if other.name != this.name && other_words.contains(this.name.as_str()) {
            out.insert(Relation {
                kind: RelationKind::MentionedBy,
                target: other_index,
            });
        }
    }
    out.into_iter().collect()
}

/// The identifier-like words of a document's prose (not its syntax lines).
fn words_of(doc: &Document) -> HashSet<&str> {
    let mut texts: Vec<&str> = Vec::new();
    for block in [&doc.semantics, &doc.description, &doc.notes]
        .into_iter()
        .flatten()
    {
        texts.push(&block.text);
    }
    for field in &doc.fields {
        texts.push(&field.description);
        texts.extend(field.bitfields.iter().map(|b| b.description.as_str()));
    }
    texts.extend(doc.syntax_comments.iter().map(String::as_str));
    texts
        .into_iter()
        .flat_map(|t| t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .collect()
}
