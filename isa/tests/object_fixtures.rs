//! The object files of the Intel compiler (fixtures/object/, made by
//! scripts/regen-object-fixtures.py) against ours.
//!
//! - Every fixture reads, and writes back byte for byte.
//! - GenX_IR (fixtures/object/genx): for each kernel it accepted, our object of the same text is
//!   byte-identical to GenX_IR's up to the instruction stream (header, string pool, variables,
//!   labels, inputs, attributes, offsets), and the streams have the same length. GenX_IR 1.0.12504
//!   writes its machine code after the kernel (we write none: it is left out of the comparison)
//!   and, assembling text, writes the instruction stream without its operands (zeros fill the
//!   rest; docs/igc-differences.md), so the stream's bytes are compared against ocloc's files.
//! - ocloc (fixtures/object/ocloc): the module read from each dumped `.isa` prints as the
//!   `.visaasm` dumped beside it, instruction by instruction.

use std::path::{Path, PathBuf};

use visa_isa::object::Object;

/// Kernels whose object differs from GenX_IR's, and why (spec/OBJECT_FORMAT.md): a file with
/// `.global_function`s (function objects are not converted yet), NBARRIER (our codec requires
/// its Type field), and the LSC messages (our encoding of their operands is longer than the
/// compiler's).
const KNOWN_DIFFERENCES: &[&str] = &[
    "fcall_0",
    "fret_0",
    "lsc_typed_0",
    "lsc_typed_2",
    "lsc_untyped_0",
    "lsc_untyped_1",
    "lsc_untyped_2",
    "lsc_untyped_3",
    "nbarrier_0",
];

fn fixtures(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/object")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> (Vec<u8>, Object) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let object = Object::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (bytes, object)
}

#[test]
fn every_fixture_reads_and_writes_back_byte_for_byte() {
    let mut files = fixtures("genx", "isa");
    files.extend(fixtures("ocloc", "isa"));
    assert!(files.len() > 50, "only {} fixtures", files.len());
    for path in files {
        let (bytes, object) = read(&path);
        let written = object
            .write()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            written == bytes,
            "{}: written back differently",
            path.display()
        );
    }
}

/// `object` without its machine code, as we write it.
fn without_machine_code(mut object: Object) -> Object {
    for kernel in &mut object.kernels {
        kernel.gen_binaries.clear();
    }
    object
}

#[test]
fn our_objects_match_genx_ir_up_to_the_instruction_stream() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for path in fixtures("genx", "isa") {
        let (_, theirs) = read(&path);
        let theirs = without_machine_code(theirs);
        let text_path = path.with_extension("visaasm");
        let text = std::fs::read_to_string(&text_path).expect("the source beside the .isa");
        let module = visa_isa::text::parse(&text)
            .unwrap_or_else(|e| panic!("{}: {e:?}", text_path.display()));
        let ours = match Object::from_module(&module) {
            Ok(ours) => ours,
            Err(e) => {
                failures.push(format!("{}: {e}", text_path.display()));
                continue;
            }
        };
        compared += 1;
        let (mut a, mut b) = (ours.clone(), theirs.clone());
        let (ka, kb) = (&mut a.kernels[0].data, &mut b.kernels[0].data);
        if ka.instructions.len() != kb.instructions.len() {
            failures.push(format!(
                "{}: instruction stream of {} bytes, GenX_IR's {}",
                path.display(),
                ka.instructions.len(),
                kb.instructions.len()
            ));
        }
        ka.instructions.clear();
        kb.instructions.clear();
        let (wa, wb) = (a.write().expect("writes"), b.write().expect("writes"));
        if wa != wb {
            let at = wa
                .iter()
                .zip(&wb)
                .position(|(x, y)| x != y)
                .unwrap_or(wa.len().min(wb.len()));
            failures.push(format!(
                "{}: container differs from byte {at}",
                path.display()
            ));
        }
    }
    assert!(compared > 50, "only {compared} kernels compared");
    // The known differences (spec/OBJECT_FORMAT.md, "Known differences"): a kernel listed here
    // that starts to match must leave the list.
    let mut differing: Vec<String> = failures
        .iter()
        .filter_map(|f| {
            let path = f.split(": ").next()?;
            Some(Path::new(path).file_stem()?.to_str()?.to_string())
        })
        .collect();
    differing.dedup();
    assert_eq!(differing, KNOWN_DIFFERENCES, "{}", failures.join("\n"));
}
