//! Differential test against Intel's own vISA assembler: `visa check --platform P` (parse, then
//! the checker's errors) must give the verdict GenX_IR (IGC's standalone assembler and verifier)
//! gives, on DG2 and PVC, for every kernel of the corpus (`igc/corpus.rs`).
//!
//! GenX_IR's verdicts are checked in (`fixtures/igc/verdicts-dg2.tsv`, `-pvc.tsv`, with the
//! assembler's version), so the test runs without it. When GenX_IR is installed it also judges
//! a sample live and fails if a fixture is stale; `VISA_REQUIRE_IGC=1` makes its absence a
//! failure; `VISA_IGC_REGENERATE=1` (`scripts/igc-fixtures.sh`) rewrites the fixtures.
//!
//! The output lists agreement per platform and corpus, false accepts (we accept, GenX_IR
//! rejects) and false rejects apart. Disagreements on the spec examples, `examples/` and the
//! guide must be known differences (`docs/igc-differences.md`, its `known-differences` block);
//! mutations must agree at least [`MIN_MUTATION_AGREEMENT`].

use std::collections::{BTreeMap, BTreeSet};

use visa_isa::rules::Platform;
use visa_isa::text::CheckOptions;

#[path = "igc/corpus.rs"]
mod corpus;
#[path = "igc/fixture.rs"]
mod fixture;
#[path = "../../runtime/tests/printed/mod.rs"]
mod printed;

use corpus::{Corpus, Kernel};
use fixture::{PLATFORMS, Verdict};

/// The least share of mutations (with a verdict, known differences aside) on which we and
/// GenX_IR agree, per platform: a ratchet, raised as rules land (the target is 99%).
const MIN_MUTATION_AGREEMENT: [(&str, f64); 2] = [("DG2", 0.997), ("PVC", 0.996)];

/// Every how many mutations one is judged live (all the other kernels are).
const LIVE_MUTATION_STRIDE: usize = 100;

/// `visa check --platform P`'s verdict: accepted when it parses and the checker reports no
/// error (warnings are not rejections).
fn our_verdict(text: &str, platform: Platform) -> Result<(), String> {
    let module = visa_isa::text::parse(text).map_err(|errors| {
        errors
            .first()
            .map_or("parse error".to_string(), |e| e.to_string())
    })?;
    let options = CheckOptions {
        platform: Some(platform),
        ..Default::default()
    };
    match visa_isa::text::check_with_options(visa_isa::INSTRUCTIONS, &module, &options)
        .into_iter()
        .find(|d| d.is_error())
    {
        Some(d) => Err(d.to_string()),
        None => Ok(()),
    }
}

/// [`our_verdict`] of every kernel, on `threads` threads.
fn our_verdicts(kernels: &[Kernel], platform: Platform, threads: usize) -> Vec<Result<(), String>> {
    let chunk = kernels.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = kernels
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|k| our_verdict(&k.text, platform))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a checker thread"))
            .collect()
    })
}

/// One entry of a `known-differences` or `pending` block of docs/igc-differences.md:
/// `kernel PLATFORM NAME` (a kernel and its mutations), `ours PLATFORM TEXT` (a false reject whose message of ours contains
/// TEXT) or `theirs PLATFORM TEXT` (a false accept whose GenX_IR message contains TEXT);
/// PLATFORM `*` is every platform; `  # ...` ends a line with a comment.
#[derive(Debug)]
struct Difference {
    what: String,
    platform: String,
    text: String,
}

impl Difference {
    fn covers(&self, platform: &str, kernel: &str, ours: &str, theirs: &str) -> bool {
        (self.platform == "*" || self.platform == platform)
            && match self.what.as_str() {
                // A kernel and its mutations.
                "kernel" => {
                    kernel == self.text
                        || kernel
                            .strip_prefix(self.text.as_str())
                            .is_some_and(|rest| rest.starts_with(" mutation "))
                }
                "ours" => ours.contains(&self.text),
                "theirs" => theirs.contains(&self.text),
                _ => false,
            }
    }
}

/// The entries of the ```BLOCK code blocks of docs/igc-differences.md.
fn differences(block: &str) -> Vec<Difference> {
    let text = std::fs::read_to_string(corpus::root().join("docs/igc-differences.md"))
        .expect("docs/igc-differences.md is readable");
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if let Some(info) = line.strip_prefix("```") {
            inside = !inside && info.trim() == block;
            continue;
        }
        if !inside {
            continue;
        }
        let line = line.split("  #").next().unwrap_or(line).trim();
        let mut parts = line.splitn(3, ' ');
        if let (Some(what), Some(platform), Some(text)) = (parts.next(), parts.next(), parts.next())
        {
            out.push(Difference {
                what: what.to_string(),
                platform: platform.to_string(),
                text: text.trim().to_string(),
            });
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    total: usize,
    agree: usize,
    false_accepts: usize,
    false_rejects: usize,
    no_verdict: usize,
    /// Disagreements that are known differences (left out of the share).
    known: usize,
    /// Disagreements still being worked on (counted in the share).
    pending: usize,
}

impl Tally {
    fn judged(&self) -> usize {
        self.total - self.no_verdict
    }

    fn share(&self) -> f64 {
        let compared = self.judged() - self.known;
        if compared == 0 {
            1.0
        } else {
            self.agree as f64 / compared as f64
        }
    }
}

#[test]
fn visa_check_agrees_with_genx_ir() {
    let kernels = corpus::kernels();
    let hashes: Vec<u64> = kernels.iter().map(|k| fixture::hash(&k.text)).collect();
    let genx = fixture::genx_ir();
    let require = std::env::var_os("VISA_REQUIRE_IGC").is_some_and(|v| v == "1");
    // `1`: judge every kernel again; `missing`: only those the fixtures do not cover.
    let regenerate_mode = std::env::var("VISA_IGC_REGENERATE").unwrap_or_default();
    let regenerate = regenerate_mode == "1" || regenerate_mode == "missing";
    if genx.is_none() && (require || regenerate) {
        panic!("GenX_IR is not installed (apt-get install libigc-tools) and VISA_REQUIRE_IGC=1");
    }
    if genx.is_none() {
        println!("GenX_IR not installed: comparing with the fixtures only");
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    if regenerate && let Some(genx) = &genx {
        let version = fixture::installed_version();
        for (platform, _) in PLATFORMS {
            let old = fixture::read(platform)
                .filter(|f| regenerate_mode == "missing" && f.version == version)
                .map(|f| f.verdicts)
                .unwrap_or_default();
            let mut seen = BTreeSet::new();
            let unique: Vec<&Kernel> = kernels
                .iter()
                .zip(&hashes)
                .filter(|(_, h)| seen.insert(**h))
                .map(|(k, _)| k)
                .collect();
            let todo: Vec<&str> = unique
                .iter()
                .filter(|k| !old.contains_key(&fixture::hash(&k.text)))
                .map(|k| k.text.as_str())
                .collect();
            let mut judged = fixture::judge_all(genx, &todo, platform, threads).into_iter();
            let rows: Vec<(u64, &str, &str, Verdict)> = unique
                .iter()
                .map(|k| {
                    let h = fixture::hash(&k.text);
                    let v = match old.get(&h) {
                        Some(v) => v.clone(),
                        None => judged.next().expect("one verdict per kernel judged"),
                    };
                    (h, k.corpus.name(), k.name.as_str(), v)
                })
                .collect();
            println!(
                "{platform}: {} kernels judged, {} kept",
                todo.len(),
                rows.len() - todo.len()
            );
            fixture::write(platform, &version, &rows);
        }
    }

    let known = differences("known-differences");
    let pending = differences("pending");
    let mut failures: Vec<String> = Vec::new();
    for (platform_name, platform_arg) in PLATFORMS {
        let platform = Platform::parse(platform_arg).expect("a known platform");
        let Some(fixture) = fixture::read(platform_name) else {
            panic!(
                "{} is missing: run scripts/igc-fixtures.sh",
                fixture::fixture_path(platform_name).display()
            );
        };
        println!("{platform_name}: GenX_IR verdicts of {}", fixture.version);

        // Stale fixture: a kernel it does not cover, or (live) a verdict GenX_IR now gives
        // differently.
        let missing: Vec<&str> = kernels
            .iter()
            .zip(&hashes)
            .filter(|(_, h)| !fixture.verdicts.contains_key(h))
            .map(|(k, _)| k.name.as_str())
            .collect();
        if !missing.is_empty() {
            failures.push(format!(
                "{platform_name}: the fixture does not cover {} kernels (first: {}); run \
                 scripts/igc-fixtures.sh",
                missing.len(),
                missing[0]
            ));
        }
        // VISA_IGC_LIVE=0 leaves the live run out (while working on the rules).
        let live = std::env::var("VISA_IGC_LIVE").map_or(true, |v| v != "0");
        if let Some(genx) = &genx
            && !regenerate
            && live
        {
            let sample: Vec<usize> = (0..kernels.len())
                .filter(|&i| {
                    kernels[i].corpus != Corpus::Mutations || i % LIVE_MUTATION_STRIDE == 0
                })
                .filter(|&i| fixture.verdicts.contains_key(&hashes[i]))
                .collect();
            let texts: Vec<&str> = sample.iter().map(|&i| kernels[i].text.as_str()).collect();
            let live = fixture::judge_all(genx, &texts, platform_name, threads);
            let stale: Vec<String> = sample
                .iter()
                .zip(&live)
                .filter(|(i, v)| !fixture.verdicts[&hashes[**i]].same(v))
                .map(|(i, v)| format!("{} (live: {v:?})", kernels[*i].name))
                .collect();
            println!(
                "{platform_name}: {} kernels judged live, {} differ from the fixture",
                sample.len(),
                stale.len()
            );
            if !stale.is_empty() {
                failures.push(format!(
                    "{platform_name}: the fixture is stale for {} kernels, e.g. {}; run \
                     scripts/igc-fixtures.sh",
                    stale.len(),
                    stale[..stale.len().min(3)].join("; ")
                ));
            }
        }

        let mut tallies: BTreeMap<Corpus, Tally> = BTreeMap::new();
        let mut examples: BTreeMap<(Corpus, &str), Vec<String>> = BTreeMap::new();
        let ours_all = our_verdicts(&kernels, platform, threads);
        for ((kernel, h), ours) in kernels.iter().zip(&hashes).zip(ours_all) {
            let Some(theirs) = fixture.verdicts.get(h) else {
                continue;
            };
            let tally = tallies.entry(kernel.corpus).or_default();
            tally.total += 1;
            let (class, line, our_message, their_message) = match (theirs, &ours) {
                (Verdict::Crash(_), _) => {
                    tally.no_verdict += 1;
                    continue;
                }
                (Verdict::Accept, Ok(())) | (Verdict::Reject(_), Err(_)) => {
                    tally.agree += 1;
                    continue;
                }
                (Verdict::Reject(m), Ok(())) => (
                    "false accept",
                    format!("{}: GenX_IR: {m}", kernel.name),
                    "",
                    m.as_str(),
                ),
                (Verdict::Accept, Err(e)) => (
                    "false reject",
                    format!("{}: ours: {e}", kernel.name),
                    e.as_str(),
                    "",
                ),
            };
            let covered = |list: &[Difference]| {
                list.iter()
                    .any(|d| d.covers(platform_name, &kernel.name, our_message, their_message))
            };
            if covered(&known) {
                tally.known += 1;
                examples
                    .entry((kernel.corpus, "known difference"))
                    .or_default()
                    .push(line);
                continue;
            }
            if class == "false accept" {
                tally.false_accepts += 1;
            } else {
                tally.false_rejects += 1;
            }
            let must_agree = matches!(
                kernel.corpus,
                Corpus::Spec | Corpus::Examples | Corpus::Guide
            );
            if covered(&pending) {
                tally.pending += 1;
            } else if must_agree {
                failures.push(format!("{platform_name}: {class} {line}"));
            }
            examples
                .entry((kernel.corpus, class))
                .or_default()
                .push(line);
        }
        println!(
            "{platform_name}: {:<10} {:>6} {:>6} {:>8} {:>6} {:>6} {:>6} {:>6} {:>7}",
            "corpus", "total", "agree", "share", "f.acc", "f.rej", "crash", "known", "pending"
        );
        for corpus in Corpus::ALL {
            let Some(t) = tallies.get(&corpus) else {
                continue;
            };
            println!(
                "{platform_name}: {:<10} {:>6} {:>6} {:>7.2}% {:>6} {:>6} {:>6} {:>6} {:>7}",
                corpus.name(),
                t.total,
                t.agree,
                100.0 * t.share(),
                t.false_accepts,
                t.false_rejects,
                t.no_verdict,
                t.known,
                t.pending
            );
        }
        // VISA_IGC_REPORT=FILE: every disagreement, for study.
        if let Ok(path) = std::env::var("VISA_IGC_REPORT") {
            let mut all = String::new();
            for ((corpus, class), list) in &examples {
                for line in list {
                    all.push_str(&format!(
                        "{platform_name}\t{}\t{class}\t{line}\n",
                        corpus.name()
                    ));
                }
            }
            let path = format!("{path}.{}", platform_name.to_ascii_lowercase());
            std::fs::write(path, all).expect("the report is writable");
        }
        for ((corpus, class), list) in &examples {
            println!(
                "{platform_name}: {} {class}s: {}",
                corpus.name(),
                list.len()
            );
            for line in list.iter().take(8) {
                println!("    {line}");
            }
        }
        let min = MIN_MUTATION_AGREEMENT
            .iter()
            .find(|(p, _)| *p == platform_name)
            .map_or(1.0, |(_, m)| *m);
        if let Some(t) = tallies.get(&Corpus::Mutations)
            && t.share() < min
        {
            failures.push(format!(
                "{platform_name}: mutations agree {:.2}% < {:.2}%",
                100.0 * t.share(),
                100.0 * min
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every kernel `ocloc` dumped for a device passes `visa check --platform DEVICE` without error.
#[test]
fn opencl_dumps_pass_visa_check_on_their_device() {
    let root = corpus::root();
    let mut checked = 0;
    let mut problems = Vec::new();
    for dir in ["fixtures/igc/opencl", "corpus/opencl"] {
        for kernel in corpus::kernels_under(&root.join(dir)) {
            // `.../DEVICE/KERNEL.visaasm` here, `DEVICE/KERNEL/dump/*.visaasm` in corpus/opencl.
            let device = kernel
                .name
                .split('/')
                .rev()
                .skip(1)
                .find_map(Platform::parse);
            let Some(device) = device else {
                continue;
            };
            checked += 1;
            if let Err(e) = our_verdict(&kernel.text, device) {
                problems.push(format!("{}: {e}", kernel.name));
            }
        }
    }
    assert!(checked >= 40, "only {checked} OpenCL dumps found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
