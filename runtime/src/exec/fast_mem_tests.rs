//! The memory-message fast paths of `exec::fast_mem` against the general per-lane path: random
//! offsets and addresses (in range, out of range, misaligned, unmapped), partly undefined
//! operands, predicates and execution sizes; the register results, the memory contents after
//! the message, or the trap must be identical.

use proptest::prelude::*;

use super::fast_tests::general_form;
use crate::{Buffer, Launch, LoadOptions, Program, Svm};

#[derive(Debug, Clone)]
struct Case {
    scatter: bool,
    size: u32,
    predicated: bool,
    mask: u32,
    defined_mask: u32,
    /// Per lane: which target (0, 1: allocation or surface offset; 2: unmapped) and offset.
    targets: [(u8, u32); 16],
    data: [u32; 16],
    /// The gathered data goes to the offsets/addresses operand itself.
    in_place: bool,
    memory_bytes: (usize, usize),
    base: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (
            any::<bool>(),
            prop::sample::select(vec![1u32, 8, 16]),
            any::<bool>(),
        ),
        (
            any::<u32>(),
            prop::sample::select(vec![u32::MAX, u32::MAX, 0xfff7_ffff]),
        ),
        prop::array::uniform16((
            0u8..3,
            prop::sample::select(vec![0u32, 4, 8, 60, 62, 124, 128, 252]),
        )),
        prop::array::uniform16(any::<u32>()),
        any::<bool>(),
        (4usize..160, 4usize..160),
        prop::sample::select(vec![0u32, 4, 6]),
    )
        .prop_map(
            |(
                (scatter, size, predicated),
                (mask, defined_mask),
                targets,
                data,
                in_place,
                memory_bytes,
                base,
            )| Case {
                scatter,
                size,
                predicated,
                mask,
                defined_mask,
                targets,
                data,
                in_place,
                memory_bytes,
                base,
            },
        )
}

const DECLS: &str = "
.decl DATA v_type=G type=ud num_elts=16 align=GRF
.decl PDATA v_type=G type=ud num_elts=16 align=GRF
.decl OUT v_type=G type=ud num_elts=16 align=GRF
.decl MASK v_type=G type=ud num_elts=1
.decl DEF v_type=G type=ud num_elts=1
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
setp (M1_NM, 16) P1 MASK(0,0)<0;1,0>
setp (M1_NM, 16) P2 DEF(0,0)<0;1,0>
(P2) mov (M1, 16) PDATA(0,0)<1> DATA(0,0)<1;1,0>
";

fn predicate(c: &Case) -> &'static str {
    if c.predicated { "(P1) " } else { "" }
}

fn surface_kernel(c: &Case) -> String {
    let mut text = DECLS.to_string();
    text += ".decl OFFS v_type=G type=ud num_elts=16 align=GRF\n";
    text += ".decl POFF v_type=G type=ud num_elts=16 align=GRF\n";
    text += "(P2) mov (M1, 16) POFF(0,0)<1> OFFS(0,0)<1;1,0>\n";
    let (pred, size, base) = (predicate(c), c.size, c.base);
    text += &if c.scatter {
        format!("{pred}scatter_scaled.4 (M1, {size}) T6 {base:#x}:ud POFF.0 PDATA.0\n")
    } else {
        let out = if c.in_place { "POFF" } else { "OUT" };
        format!("{pred}gather_scaled.4 (M1, {size}) T6 {base:#x}:ud POFF.0 {out}.0\n")
    };
    text
}

fn svm_kernel(c: &Case) -> String {
    let mut text = DECLS.to_string();
    text += ".decl ADDR v_type=G type=uq num_elts=16 align=GRF\n";
    text += ".decl PADDR v_type=G type=uq num_elts=16 align=GRF\n";
    text += "(P2) mov (M1, 16) PADDR(0,0)<1> ADDR(0,0)<1;1,0>\n";
    let (pred, size) = (predicate(c), c.size);
    text += &if c.scatter {
        format!("{pred}svm_scatter.4.1 (M1, {size}) PADDR.0 PDATA.0\n")
    } else {
        let out = if c.in_place { "PADDR" } else { "OUT" };
        format!("{pred}svm_gather.4.1 (M1, {size}) PADDR.0 {out}.0\n")
    };
    text
}

/// Registers OUT/POFF/PADDR, the memory afterwards, or the trap.
type Outcome = Result<(Vec<u8>, Vec<bool>, Vec<u8>, Vec<u8>), String>;

fn memory_bytes(len: usize, seed: u32) -> Vec<u8> {
    (0..len).map(|i| (i as u32 * 7 + seed) as u8).collect()
}

fn surface_outcome(program: &Program, c: &Case) -> Outcome {
    surface_outcome_into(program, c, "OUT")
}

/// Registers `out`/POFF, the surface afterwards, or the trap.
fn surface_outcome_into(program: &Program, c: &Case, out: &str) -> Outcome {
    let surface = Buffer::from_bytes(&memory_bytes(c.memory_bytes.0, 1));
    let offsets: Vec<u32> = c.targets.iter().map(|(_, o)| *o).collect();
    let result = Launch::new(program)
        .simd(16)
        .bind_scalar("MASK", c.mask)
        .bind_scalar("DEF", c.defined_mask)
        .bind_vector("DATA", &c.data)
        .bind_vector("OFFS", &offsets)
        .bind_surface("T6", &surface)
        .capture(out)
        .capture("POFF")
        .run()
        .map_err(|e| e.to_string())?;
    let (out, out_defined) = result.thread_bytes(out, 0).ok_or("no output")?;
    let (poff, poff_defined) = result.thread_bytes("POFF", 0).ok_or("no POFF")?;
    let defined = [out_defined, poff_defined].concat();
    Ok((
        [out, poff].concat(),
        defined,
        surface.to_bytes(),
        Vec::new(),
    ))
}

fn svm_outcome(program: &Program, c: &Case) -> Outcome {
    let mut svm = Svm::new();
    let a = svm.alloc_from(&memory_bytes(c.memory_bytes.0, 1));
    let b = svm.alloc_from(&memory_bytes(c.memory_bytes.1, 2));
    let addresses: Vec<u64> = c
        .targets
        .iter()
        .map(|(which, offset)| match which {
            0 => a + u64::from(*offset),
            1 => b + u64::from(*offset),
            _ => u64::from(*offset),
        })
        .collect();
    let result = Launch::new(program)
        .simd(16)
        .svm(&svm)
        .bind_scalar("MASK", c.mask)
        .bind_scalar("DEF", c.defined_mask)
        .bind_vector("DATA", &c.data)
        .bind_vector("ADDR", &addresses)
        .capture("OUT")
        .capture("PADDR")
        .run()
        .map_err(|e| e.to_string())?;
    let (out, out_defined) = result.thread_bytes("OUT", 0).ok_or("no OUT")?;
    let (addr, addr_defined) = result.thread_bytes("PADDR", 0).ok_or("no PADDR")?;
    let memory_a: Vec<u8> = svm
        .read_vec(a, c.memory_bytes.0)
        .map_err(|e| format!("{e:?}"))?;
    let memory_b: Vec<u8> = svm
        .read_vec(b, c.memory_bytes.1)
        .map_err(|e| format!("{e:?}"))?;
    let defined = [out_defined, addr_defined].concat();
    Ok(([out, addr].concat(), defined, memory_a, memory_b))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn surface_fast_path_matches_the_general_path(c in case()) {
        let text = surface_kernel(&c);
        let loaded = Program::from_text(&text, &LoadOptions::default());
        prop_assert!(loaded.is_ok(), "{}\n{:?}", text, loaded.err());
        let Ok(fast) = loaded else { return Ok(()) };
        let general = general_form(&fast);
        prop_assert_eq!(surface_outcome(&fast, &c), surface_outcome(&general, &c), "{}", text);
    }

    #[test]
    fn svm_fast_path_matches_the_general_path(c in case()) {
        let text = svm_kernel(&c);
        let loaded = Program::from_text(&text, &LoadOptions::default());
        prop_assume!(loaded.is_ok());
        let Ok(fast) = loaded else { return Ok(()) };
        let general = general_form(&fast);
        prop_assert_eq!(svm_outcome(&fast, &c), svm_outcome(&general, &c), "{}", text);
    }
}

/// `gather4_scaled` / `scatter4_scaled` on a surface with the channels `channels` (`R`, `GA`,
/// `RGBA`, ...): OUT4 and DATA4 hold four channels of 16 lanes.
fn surface4_kernel(c: &Case, channels: &str) -> String {
    let mut text = DECLS.to_string();
    text += ".decl OFFS v_type=G type=ud num_elts=16 align=GRF\n";
    text += ".decl POFF v_type=G type=ud num_elts=16 align=GRF\n";
    text += ".decl OUT4 v_type=G type=ud num_elts=64 align=GRF\n";
    text += ".decl DATA4 v_type=G type=ud num_elts=64 align=GRF\n";
    text += "(P2) mov (M1, 16) POFF(0,0)<1> OFFS(0,0)<1;1,0>\n";
    for k in 1..4 {
        text += &format!("mov (M1, 16) DATA4({},0)<1> DATA(0,0)<1;1,0>\n", k * 2);
    }
    text += "(P2) mov (M1, 16) DATA4(0,0)<1> DATA(0,0)<1;1,0>\n";
    let (pred, size, base) = (predicate(c), c.size, c.base);
    text += &if c.scatter {
        format!("{pred}scatter4_scaled.{channels} (M1, {size}) T6 {base:#x}:ud POFF.0 DATA4.0\n")
    } else {
        let out = if c.in_place { "POFF" } else { "OUT4" };
        format!("{pred}gather4_scaled.{channels} (M1, {size}) T6 {base:#x}:ud POFF.0 {out}.0\n")
    };
    text
}

fn surface4_outcome(program: &Program, c: &Case) -> Outcome {
    surface_outcome_into(program, c, "OUT4")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn surface4_fast_path_matches_the_general_path(
        c in case(),
        channels in prop::sample::select(vec!["R", "G", "GA", "RGB", "RGBA"]),
    ) {
        // Four-channel messages take SIMD8 or SIMD16.
        prop_assume!(c.size != 1);
        let text = surface4_kernel(&c, channels);
        let loaded = Program::from_text(&text, &LoadOptions::default());
        // Several channels gathered in place need more than POFF's 64 bytes: refused at load.
        prop_assume!(loaded.is_ok() || !(c.in_place && !c.scatter && channels.len() > 1));
        prop_assert!(loaded.is_ok(), "{}\n{:?}", text, loaded.err());
        let Ok(fast) = loaded else { return Ok(()) };
        let general = general_form(&fast);
        let expected = surface4_outcome(&general, &c);
        prop_assert_eq!(surface4_outcome(&fast, &c), expected.clone(), "{}", text);
        // Compiled code (the red channel natively, the others through the handler): the same
        // trap, memory, and register bytes wherever the general path defined them.
        for tier in [crate::JitTier::Quick, crate::JitTier::Optimized] {
            let options = LoadOptions::default().engine(crate::Engine::Jit).jit_tier(tier);
            let jit = Program::from_text(&text, &options).expect("loads as it did");
            let got = surface4_outcome(&jit, &c);
            match (&expected, &got) {
                (Ok((bytes, defined, memory, _)), Ok((jit_bytes, _, jit_memory, _))) => {
                    prop_assert_eq!(memory, jit_memory, "{:?} {}", tier, text);
                    for (i, d) in defined.iter().enumerate() {
                        prop_assert!(!d || bytes[i] == jit_bytes[i], "{:?} byte {}: {}", tier, i, text);
                    }
                }
                // The interpreter traps on reading never-written bytes; compiled code does not.
                (Err(e), _) if e.contains("never written") || e.contains("undefined") => {}
                _ => prop_assert_eq!(&expected, &got, "{:?} {}", tier, text),
            }
        }
    }
}
