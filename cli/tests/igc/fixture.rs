//! GenX_IR's verdicts: running it on a kernel, and the checked-in fixtures
//! (`fixtures/igc/verdicts-PLATFORM.tsv`, one line per kernel text, keyed by the text's hash).

use std::collections::BTreeMap;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What Intel's assembler says of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Exit 0 and no `.errors.txt`.
    Accept,
    /// A parse error (`near line N: ...`) or a verifier error (`.errors.txt`): the message.
    Reject(String),
    /// It crashed or failed in its backend without a parse or verifier error: no verdict.
    Crash(String),
}

impl Verdict {
    fn code(&self) -> char {
        match self {
            Verdict::Accept => 'A',
            Verdict::Reject(_) => 'R',
            Verdict::Crash(_) => 'C',
        }
    }

    fn message(&self) -> &str {
        match self {
            Verdict::Accept => "",
            Verdict::Reject(m) | Verdict::Crash(m) => m,
        }
    }

    /// Same verdict (messages aside).
    pub fn same(&self, other: &Verdict) -> bool {
        self.code() == other.code()
    }
}

/// The platforms judged, as GenX_IR names them and as `visa check --platform` does.
pub const PLATFORMS: [(&str, &str); 2] = [("DG2", "dg2"), ("PVC", "pvc")];

/// A stable 64-bit hash of a kernel text (FNV-1a).
pub fn hash(text: &str) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(text.as_bytes());
    h.finish()
}

pub fn fixture_path(platform: &str) -> PathBuf {
    super::corpus::root().join(format!(
        "fixtures/igc/verdicts-{}.tsv",
        platform.to_ascii_lowercase()
    ))
}

/// A fixture: the assembler's version line and the verdict of each kernel hash.
pub struct Fixture {
    pub version: String,
    pub verdicts: BTreeMap<u64, Verdict>,
}

pub fn read(platform: &str) -> Option<Fixture> {
    let text = std::fs::read_to_string(fixture_path(platform)).ok()?;
    let mut version = String::new();
    let mut verdicts = BTreeMap::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("# assembler: ") {
            version = v.to_string();
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let mut cols = line.split('\t');
        let (Some(h), Some(code)) = (cols.next(), cols.next()) else {
            continue;
        };
        let Ok(h) = u64::from_str_radix(h, 16) else {
            continue;
        };
        let message = cols.nth(2).unwrap_or("").to_string();
        let verdict = match code {
            "A" => Verdict::Accept,
            "R" => Verdict::Reject(message),
            _ => Verdict::Crash(message),
        };
        verdicts.insert(h, verdict);
    }
    Some(Fixture { version, verdicts })
}

/// Writes a fixture: a header, then `HASH  VERDICT  CORPUS  NAME  MESSAGE` per kernel.
pub fn write(platform: &str, version: &str, rows: &[(u64, &str, &str, Verdict)]) {
    let mut out = format!(
        "# GenX_IR -platform {platform} verdicts of the kernels of cli/tests/igc_agreement.rs \
         (A accept, R reject, C crash: no verdict).\n# Regenerate: scripts/igc-fixtures.sh\n\
         # assembler: {version}\n"
    );
    for (h, corpus, name, verdict) in rows {
        out.push_str(&format!(
            "{h:016x}\t{}\t{corpus}\t{name}\t{}\n",
            verdict.code(),
            verdict.message()
        ));
    }
    std::fs::write(fixture_path(platform), out).expect("the fixture is writable");
}

/// The GenX_IR on `PATH`, if any.
pub fn genx_ir() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("GenX_IR"))
        .find(|p| p.is_file())
}

/// The installed assembler's version (the Debian package that holds it, when known).
pub fn installed_version() -> String {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Package} ${Version}", "libigc-tools"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_else(|| "GenX_IR (version unknown)".to_string())
}

/// One line, tabs and newlines made spaces, at most 160 characters.
fn clean(message: &str) -> String {
    let one: String = message
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    let one = one.split_whitespace().collect::<Vec<_>>().join(" ");
    one.chars().take(160).collect()
}

/// Runs GenX_IR on `text` for `platform` in the scratch directory `dir`.
pub fn judge(genx: &Path, dir: &Path, text: &str, platform: &str) -> Verdict {
    let file = dir.join("k.visaasm");
    let errors = dir.join("k.errors.txt");
    let _ = std::fs::remove_file(&errors);
    std::fs::write(&file, text).expect("scratch file is writable");
    let output = Command::new("timeout")
        .args(["20"])
        .arg(genx)
        .arg("k.visaasm")
        .args(["-platform", platform])
        .current_dir(dir)
        .output()
        .expect("GenX_IR runs");
    let all = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if let Ok(list) = std::fs::read_to_string(&errors) {
        // `Error Message: ...`, or the LSC checks' ` * ...` lines.
        let first = list
            .lines()
            .find_map(|l| {
                let l = l.trim();
                l.strip_prefix("Error Message:")
                    .or_else(|| l.strip_prefix("* "))
            })
            .unwrap_or("verifier error");
        return Verdict::Reject(clean(first));
    }
    if let Some(line) = all.lines().find(|l| l.contains("near line")) {
        return Verdict::Reject(clean(line));
    }
    if output.status.success() {
        return Verdict::Accept;
    }
    // It exits 1 after spilling registers; that is not a rejection.
    if output.status.code() == Some(1) && all.to_ascii_lowercase().contains("spill") {
        return Verdict::Accept;
    }
    let last = all
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    Verdict::Crash(clean(&format!("exit {:?}: {last}", output.status.code())))
}

/// Judges every text on `platform` with `threads` scratch directories in parallel.
pub fn judge_all(genx: &Path, texts: &[&str], platform: &str, threads: usize) -> Vec<Verdict> {
    let mut out: Vec<Option<Verdict>> = vec![None; texts.len()];
    let chunk = texts.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for (texts, slots) in texts.chunks(chunk).zip(out.chunks_mut(chunk)) {
            scope.spawn(move || {
                let dir = tempfile::tempdir().expect("scratch directory");
                for (text, slot) in texts.iter().zip(slots) {
                    *slot = Some(judge(genx, dir.path(), text, platform));
                }
            });
        }
    });
    out.into_iter().map(|v| v.expect("judged")).collect()
}
