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

use visa_isa::object::module::function_as_kernel;
use visa_isa::object::{KernelObject, Object};

/// Kernels whose object differs from GenX_IR's, and why (spec/OBJECT_FORMAT.md, "Known
/// differences"): none. (The LSC messages and NBARRIER, listed here before their documents had
/// conditional Format tables, now match.)
const KNOWN_DIFFERENCES: &[&str] = &[];

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
        if a.functions.len() != b.functions.len() {
            failures.push(format!(
                "{}: {} functions, GenX_IR's {}",
                path.display(),
                a.functions.len(),
                b.functions.len()
            ));
        }
        for (fa, fb) in a.functions.iter_mut().zip(&mut b.functions) {
            if fa.data.instructions.len() != fb.data.instructions.len() {
                failures.push(format!(
                    "{}: function {} has an instruction stream of {} bytes, GenX_IR's {}",
                    path.display(),
                    String::from_utf8_lossy(&fa.name),
                    fa.data.instructions.len(),
                    fb.data.instructions.len()
                ));
            }
            fa.data.instructions.clear();
            fb.data.instructions.clear();
        }
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

/// Whether `theirs`, an instruction stream as IGC 1.0.12504 writes it, is ours as that compiler
/// writes it (spec/OBJECT_FORMAT.md, "Known differences"): per instruction, the opcode byte(s)
/// and the first fields (the compiler keeps as many as the instruction has operands besides its
/// execution size and predicate, a count we do not know for every instruction: the number of
/// fields kept is taken as the most that match and are followed by the next instruction's
/// opcode); the rest of the stream's full length is not written (zeros in GenX_IR's files,
/// leftover memory in ocloc's). Returns the offset of the first instruction that does not fit.
fn compiler_writes_ours(kernel: &KernelObject, theirs: &[u8]) -> Result<(), usize> {
    use visa_isa::codec;
    let syms = visa_isa::object::module::symbols(kernel).expect("symbols");
    let stream = &kernel.data.instructions;
    if theirs.len() != stream.len() {
        return Err(0);
    }
    let mut parts = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let (inst, used) = codec::decode(&stream[at..], &syms).unwrap_or_else(|e| {
            panic!(
                "our stream decodes at {at}: {e}: {:02x?}",
                &stream[at..(at + 40).min(stream.len())]
            )
        });
        let mut bytes = Vec::new();
        let ends = codec::encode_with_ends(&inst, &mut syms.clone(), &mut bytes).expect("encodes");
        assert_eq!(bytes, stream[at..at + used], "re-encoding is stable");
        parts.push((bytes, ends));
        at += used;
    }
    let mut pos = 0;
    for (index, (bytes, ends)) in parts.iter().enumerate() {
        let next = parts.get(index + 1).map(|(b, _)| b[0]);
        let fits = ends.iter().rev().find(|&&end| {
            theirs.get(pos..pos + end) == Some(&bytes[..end])
                && match next {
                    Some(opcode) => theirs.get(pos + end) == Some(&opcode),
                    None => true,
                }
        });
        match fits {
            Some(end) => pos += end,
            None => return Err(pos),
        }
    }
    // What follows is not written: zeros from GenX_IR, whatever memory held from ocloc.
    let _ = pos;
    Ok(())
}

#[test]
fn our_instruction_streams_match_genx_ir_where_it_writes_them() {
    let mut compared = 0;
    let mut differing = Vec::new();
    for path in fixtures("genx", "isa") {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if KNOWN_DIFFERENCES.contains(&stem.as_str()) {
            continue;
        }
        let (_, theirs) = read(&path);
        let text = std::fs::read_to_string(path.with_extension("visaasm")).expect("source");
        let module = visa_isa::text::parse(&text).expect("parses");
        let ours = Object::from_module(&module).expect("converts");
        compared += 1;
        // The kernel, then its functions, each against the compiler's.
        let routines = |object: &Object| {
            let functions = object.functions.iter().map(function_as_kernel);
            std::iter::once(object.kernels[0].clone())
                .chain(functions)
                .collect::<Vec<_>>()
        };
        let (ours_all, theirs_all) = (routines(&ours), routines(&theirs));
        let fit = if ours_all.len() == theirs_all.len() {
            ours_all
                .iter()
                .zip(&theirs_all)
                .try_for_each(|(a, b)| compiler_writes_ours(a, &b.data.instructions))
        } else {
            Err(0)
        };
        if let Err(at) = fit {
            if std::env::var_os("VISA_OBJECT_DEBUG").is_some() {
                let hex = |b: &[u8]| {
                    b.iter()
                        .map(|x| format!("{x:02x}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let (a, b) = (
                    &ours.kernels[0].data.instructions,
                    &theirs.kernels[0].data.instructions,
                );
                eprintln!("{stem} at {at}\n ours   {}\n theirs {}", hex(a), hex(b));
            }
            differing.push(stem);
        }
    }
    assert!(compared > 50, "only {compared} kernels compared");
    assert_eq!(differing, STREAM_DIFFERENCES, "{compared} compared");
}

/// Kernels whose instruction stream, as the compiler writes it, differs from ours
/// (spec/OBJECT_FORMAT.md, "Known differences"): `&V` in ADDR_ADD (the compiler writes a general
/// operand whose row and column depend on the variable's type and the platform's register size,
/// which a stream read without its declarations does not know), JMP's execution-size byte (the
/// compiler stores no execution mask for JMP, and our runtime honours a written `_NM`; in jmp_0
/// and yield_0), and select_op, where the compiler cuts the SWITCHJMP label list inside the list.
const STREAM_DIFFERENCES: &[&str] = &["addr_add_0", "jmp_0", "select_op", "yield_0"];

/// Declarations grouped by kind as the compiler's dump prints them (general, address,
/// predicate, sampler, surface), each group in its order.
fn by_kind(module: &mut visa_isa::ast::Module) {
    use visa_isa::ast::{DeclKind, StmtKind};
    module.stmts.sort_by_key(|s| match &s.kind {
        StmtKind::Decl(d) => match d.kind {
            DeclKind::General { .. } => 1,
            DeclKind::Address { .. } => 2,
            DeclKind::Predicate { .. } => 3,
            DeclKind::Sampler { .. } => 4,
            DeclKind::Surface { .. } => 5,
        },
        StmtKind::Version { .. } | StmtKind::Kernel { .. } => 0,
        _ => 6,
    });
}

/// The kernel attribute the compiler's API adds and its `.visaasm` dump does not print.
const UNPRINTED_ATTRIBUTES: &[&str] = &["OutputAsmPath"];

#[test]
fn ocloc_objects_hold_the_dumped_assembly() {
    use visa_isa::ast::StmtKind;
    use visa_isa::object::module::declarations_module;
    let files = fixtures("ocloc", "isa");
    assert!(files.len() >= 4, "only {} ocloc fixtures", files.len());
    for path in files {
        let (_, theirs) = read(&path);
        let text_path = path.with_extension("visaasm");
        let text = std::fs::read_to_string(&text_path).expect("the dumped assembly");
        let module = visa_isa::text::parse(&text)
            .unwrap_or_else(|e| panic!("{}: {e:?}", text_path.display()));
        let ours =
            Object::from_module(&module).unwrap_or_else(|e| panic!("{}: {e}", text_path.display()));
        // Declarations, inputs and attributes: what the dump prints of them.
        let mut read_back = declarations_module(&theirs.kernels[0], theirs.version).expect("reads");
        read_back.stmts.retain(|s| {
            !matches!(&s.kind, StmtKind::KernelAttr { name, .. } if UNPRINTED_ATTRIBUTES.contains(&name.as_str()))
        });
        let mut expected = declarations_module(&ours.kernels[0], ours.version).expect("ours");
        // The dump groups declarations by kind; the pool holds them in the order the compiler
        // created them.
        by_kind(&mut read_back);
        by_kind(&mut expected);
        assert_eq!(
            visa_isa::text::format_module(&read_back),
            visa_isa::text::format_module(&expected),
            "{}",
            path.display()
        );
        // The instruction stream: what the compiler writes of ours.
        let (a, b) = (
            &ours.kernels[0].data.instructions,
            &theirs.kernels[0].data.instructions,
        );
        if let Err(at) = compiler_writes_ours(&ours.kernels[0], b) {
            let hex = |b: &[u8]| {
                b.iter()
                    .map(|x| format!("{x:02x}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            panic!(
                "{}: the stream differs from instruction byte {at}\n ours   {}\n theirs {}",
                path.display(),
                hex(a),
                hex(b)
            );
        }
    }
}

/// `visa dis` then `visa asm` gives the same bytes, for our object of every fixture's text
/// (the compiler's own files do not disassemble whole: their instruction streams are cut short,
/// spec/OBJECT_FORMAT.md).
#[test]
fn disassembling_and_assembling_again_gives_the_same_bytes() {
    let mut files = fixtures("genx", "visaasm");
    files.extend(fixtures("ocloc", "visaasm"));
    let mut round_trips = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("reads");
        let module = visa_isa::text::parse(&text).expect("parses");
        let object = Object::from_module(&module)
            .unwrap_or_else(|e| panic!("{}: does not convert: {e}", path.display()));
        let bytes = object.write().expect("writes");
        let disassembled = visa_isa::text::format_module(
            &Object::read(&bytes)
                .and_then(|o| o.to_module())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        );
        let again = visa_isa::text::parse(&disassembled).unwrap_or_else(|e| {
            panic!(
                "{}: the disassembly does not parse: {e:?}\n{disassembled}",
                path.display()
            )
        });
        let rewritten = Object::from_module(&again).and_then(|o| o.write());
        assert!(
            rewritten.as_ref() == Ok(&bytes),
            "{}: {rewritten:?}\n{disassembled}",
            path.display()
        );
        round_trips += 1;
    }
    assert!(round_trips >= 94, "only {round_trips} round trips");
}

/// The GenX_IR fixtures are what the installed GenX_IR writes today (regenerate them with
/// scripts/regen-object-fixtures.py). Skipped when GenX_IR is not installed, unless
/// `VISA_REQUIRE_IGC=1` (CI) makes that a failure.
#[test]
fn genx_ir_fixtures_are_current() {
    let probe = std::process::Command::new("GenX_IR").arg("-help").output();
    if probe.is_err() {
        assert!(
            std::env::var("VISA_REQUIRE_IGC").as_deref() != Ok("1"),
            "GenX_IR is not installed and VISA_REQUIRE_IGC=1"
        );
        eprintln!("skipped: GenX_IR not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("visa-object-fixtures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut stale = Vec::new();
    for source in fixtures("genx", "visaasm") {
        let name = source.file_name().expect("a file name");
        std::fs::copy(&source, dir.join(name)).expect("copies");
        let status = std::process::Command::new("GenX_IR")
            .arg(name)
            .args(["-platform", "PVC", "-binary"])
            .current_dir(&dir)
            .output()
            .expect("GenX_IR runs");
        let written = std::fs::read(dir.join(name).with_extension("isa"));
        let fixture = std::fs::read(source.with_extension("isa")).expect("the fixture");
        if !status.status.success() || written.ok() != Some(fixture) {
            stale.push(source.display().to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        stale.is_empty(),
        "stale (run scripts/regen-object-fixtures.py): {stale:?}"
    );
}
