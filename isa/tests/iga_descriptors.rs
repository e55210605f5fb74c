//! Differential test of our message decoding (spec/messages/, `visa_isa::send`) against
//! `iga64 -Xdsd`: fixtures/iga/descriptors.txt holds iga64's decoding of every descriptor our LSC
//! instructions produce (`send::lsc_corpus_messages`, PVC) and of those of public inline vISA
//! (fixtures/iga/inline_descriptors.txt); `scripts/iga_descriptors.sh` regenerates it. For each,
//! the fields iga64 prints must be the fields our documents say the operation reads, at the same
//! bits with the same values, and the operation and cache controls must be spelled alike. When
//! iga64 is installed, a sample is decoded again live and must match the fixture
//! (`VISA_REQUIRE_IGC=1` makes its absence a failure).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use visa_isa::messages::{self, Word};
use visa_isa::rules::Platform;
use visa_isa::send::{self, Message};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// IGA's names for the fields ours call otherwise (the rest are the same).
const IGA_NAMES: &[(&str, &str)] = &[
    ("DataOrder", "Transpose"),
    ("Block2dVnniTransform", "Vnni"),
    ("FlushOp", "FenceOp"),
    ("FlushScope", "FenceScope"),
    ("CompEn", "ChMask"),
    ("GatewayOpcode", "Opcode"),
    ("SurfaceStateOffset", "SurfaceOffset"),
    ("BTI", "Bti"),
];

struct Record {
    key: (String, u32, u32, u32),
    syntax: String,
    fields: BTreeSet<(String, u32, u32, u64)>,
    line: String,
}

fn number(text: &str) -> u32 {
    let t = text.trim();
    u32::from_str_radix(t.trim_start_matches("0x").trim_start_matches("0X"), 16)
        .unwrap_or_else(|_| panic!("{t}"))
}

fn records() -> Vec<Record> {
    let text =
        std::fs::read_to_string(root().join("fixtures/iga/descriptors.txt")).expect("the fixture");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let parts: Vec<&str> = line.split(" | ").collect();
        let head: Vec<&str> = parts[0].split_whitespace().collect();
        let exec = head[1]
            .trim_matches(|c| c == '(' || c == ')')
            .parse()
            .expect("exec");
        let key = (head[0].to_string(), exec, number(head[2]), number(head[3]));
        let mut fields = BTreeSet::new();
        for field in parts
            .get(2)
            .unwrap_or(&"")
            .split("; ")
            .filter(|f| !f.trim().is_empty())
        {
            let f: Vec<&str> = field.split_whitespace().collect();
            let name = IGA_NAMES
                .iter()
                .find(|(iga, _)| *iga == f[1])
                .map_or(f[1], |(_, ours)| ours);
            let (hi, lo) = f[2].split_once(':').expect("hi:lo");
            let value = u64::from(number(f[3]));
            fields.insert((
                format!("{}.{name}", f[0]),
                hi.parse().unwrap(),
                lo.parse().unwrap(),
                value,
            ));
        }
        out.push(Record {
            key,
            syntax: parts.get(1).unwrap_or(&"").trim().to_string(),
            fields,
            line: line.to_string(),
        });
    }
    out
}

fn ours(sfid: u8, desc: u32, ex_desc: u32) -> BTreeSet<(String, u32, u32, u64)> {
    send::decode(sfid, desc, ex_desc)
        .fields(None)
        .into_iter()
        .filter(|v| v.field.word != Word::Payload)
        .map(|v| {
            (
                format!("{}.{}", v.field.word.name(), v.field.name),
                v.field.hi,
                v.field.lo,
                v.value,
            )
        })
        .collect()
}

#[test]
fn every_descriptor_decodes_as_iga64_decodes_it() {
    let records = records();
    assert!(records.len() > 3000, "{} descriptors", records.len());
    let mut problems = Vec::new();
    for r in &records {
        let (name, _, ex_desc, desc) = &r.key;
        let sfid = messages::sfid_named(name).expect("a described shared function");
        let mine = ours(sfid, *desc, *ex_desc);
        if mine != r.fields {
            let only_ours: Vec<_> = mine.difference(&r.fields).collect();
            let only_iga: Vec<_> = r.fields.difference(&mine).collect();
            problems.push(format!(
                "{}\n  only ours: {only_ours:?}\n  only iga64: {only_iga:?}",
                r.line
            ));
            continue;
        }
        let message = send::decode(sfid, *desc, *ex_desc);
        let op = message.operation().unwrap_or("?");
        let iga_op = r.syntax.split('.').next().unwrap_or("");
        if op != iga_op {
            problems.push(format!("{}\n  our operation: {op}", r.line));
        }
        if let Message::Lsc(m) = message
            && let Some((l1, l3)) = m.caching().filter(|c| *c != ("df", "df"))
            && !r.syntax.ends_with(&format!(".{l1}.{l3}"))
        {
            problems.push(format!("{}\n  our caching: {l1}.{l3}", r.line));
        }
        if let Message::Lsc(m) = message
            && op != "fence"
            && let Some(size) = m.desc.data_size().token()
            && !r.syntax.split('.').any(|part| part.starts_with(size))
        {
            problems.push(format!("{}\n  our data size: {size}", r.line));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} differ:\n{}",
        problems.len(),
        records.len(),
        problems.join("\n")
    );
}

#[test]
fn the_fixture_covers_every_descriptor_of_our_lsc_instructions_and_the_public_inline_visa() {
    let keys: BTreeSet<_> = records().into_iter().map(|r| r.key).collect();
    let ours = send::lsc_corpus_messages(Platform::Pvc, 64);
    assert!(ours.len() > 500, "{} LSC messages", ours.len());
    for (line, m) in &ours {
        let name = messages::find(m.sfid).expect("described").0;
        assert!(
            keys.contains(&(name.to_string(), m.exec, m.ex_desc, m.desc)),
            "{line} sends {name} 0x{:X}, which the fixture lacks: run scripts/iga_descriptors.sh",
            m.desc
        );
    }
    let inline =
        std::fs::read_to_string(root().join("fixtures/iga/inline_descriptors.txt")).expect("list");
    for line in inline.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let exec = f[1].trim_matches(|c| c == '(' || c == ')').parse().unwrap();
        assert!(
            keys.contains(&(f[0].to_string(), exec, number(f[2]), number(f[3]))),
            "{line}"
        );
    }
}

#[test]
fn a_sample_decodes_live_as_the_fixture_says_when_iga64_is_installed() {
    let installed = Command::new("iga64").arg("--help").output().is_ok();
    if !installed {
        assert!(
            std::env::var_os("VISA_REQUIRE_IGC").is_none(),
            "VISA_REQUIRE_IGC is set but iga64 is missing"
        );
        eprintln!("skipped: iga64 is not installed");
        return;
    }
    let records = records();
    for r in records.iter().step_by(97) {
        let (name, exec, ex_desc, desc) = &r.key;
        let out = Command::new("iga64")
            .args([
                "-p=xehpc",
                "-Xdsd",
                name,
                &format!("({exec})"),
                &format!("0x{ex_desc:X}"),
                &format!("0x{desc:X}"),
            ])
            .output()
            .expect("iga64 runs");
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        let awk = Command::new("awk")
            .args([
                "-f",
                &root().join("scripts/iga_fields.awk").display().to_string(),
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .expect("stdin")
                    .write_all(text.as_bytes())?;
                child.wait_with_output()
            })
            .expect("awk runs");
        let live = String::from_utf8_lossy(&awk.stdout);
        let fixture_tail = r.line.split_once(" | ").map_or("", |(_, t)| t);
        assert_eq!(live.trim_end(), fixture_tail.trim_end(), "{}", r.line);
    }
}
