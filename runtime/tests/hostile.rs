//! Hostile kernels: each one must end in the exact load error or trap given here (kind, pc,
//! instruction text and lane), never in a panic or a silently wrong result.

mod common;

use common::{FOREVER, interpreted, program};
use visa_isa::ast::Span;
use visa_runtime::{
    Buffer, Launch, LaunchError, LaunchResult, LoadError, LoadOptions, Program, Svm, Trap, TrapKind,
};

fn trap(result: Result<LaunchResult, LaunchError>) -> Box<Trap> {
    match result {
        Err(LaunchError::Trap(trap)) => trap,
        Err(other) => panic!("expected a trap, got {other}"),
        Ok(_) => panic!("expected a trap, the launch succeeded"),
    }
}

fn load_error(src: &str) -> LoadError {
    match Program::from_text(src, &LoadOptions::default()) {
        Err(e) => e,
        Ok(_) => panic!("expected a load error:\n{src}"),
    }
}

/// Byte offset of variable `name` in the register file.
fn offset_of(p: &Program, name: &str) -> i64 {
    let var = p.layout().vars.iter().find(|v| v.name == name);
    i64::from(var.unwrap_or_else(|| panic!("no variable {name}")).offset)
}

#[test]
fn a_loop_that_never_ends_stops_when_the_fuel_runs_out() {
    let p = program(FOREVER);
    let t = trap(Launch::new(&p).simd(8).fuel(1001).run());
    // mov, then (add, jmp) pairs: the step after the budget (1002) is an add, at pc 1.
    assert_eq!(t.kind, TrapKind::OutOfFuel(1001));
    assert_eq!((t.pc, t.lane), (1, None));
    assert_eq!(t.instruction, "add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d");
    assert_eq!(t.span, Span::new(5, 1));
    assert_eq!(
        t.to_string(),
        "trap in kernel 'forever' (group 0, thread 0) at pc 1 (5:1: \
         `add (M1, 8) N(0,0)<1> N(0,0)<1;1,0> 0x1:d`): \
         fuel exhausted: the launch executed more than 1001 instructions"
    );
    // The budget is shared by the whole launch, not given to each group.
    let t = trap(Launch::new(&p).simd(8).groups(4).fuel(100).run());
    assert_eq!(t.kind, TrapKind::OutOfFuel(100));
}

const INDIRECT: &str = "\
.decl A v_type=A num_elts=1
.decl X v_type=G type=d num_elts=8 align=GRF
.decl Y v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) X(0,0)<1> 0x7:d
mov (M1, 8) Y(0,0)<1> 0x0:d
addr_add (M1_NM, 1) A(0)<1> &X[0] OFFSET:uw
mov (M1, 8) Y(0,0)<1> r[A(0), DISP]<8;8,1>:d
";

fn indirect(offset: &str, disp: &str) -> (Program, Result<LaunchResult, LaunchError>) {
    let src = INDIRECT.replace("OFFSET", offset).replace("DISP", disp);
    let p = program(&src);
    let result = Launch::new(&p).simd(8).capture("Y").run();
    (p, result)
}

#[test]
fn an_indirect_operand_past_the_end_of_the_register_file_traps() {
    let (p, result) = indirect("0xff00", "0");
    let t = trap(result);
    let address = offset_of(&p, "X") + 0xff00;
    assert_eq!(t.kind, TrapKind::IndirectOutOfBounds { address, len: 4 });
    assert_eq!((t.pc, t.lane), (3, Some(0)));
    assert_eq!(t.instruction, "mov (M1, 8) Y(0,0)<1> r[A(0),0]<8;8,1>:d");
}

#[test]
fn an_indirect_operand_before_the_register_file_traps_with_its_negative_address() {
    let (p, result) = indirect("0x0", "-512");
    let t = trap(result);
    let address = offset_of(&p, "X") - 512;
    assert!(address < 0, "X is at {}", address + 512);
    assert_eq!(t.kind, TrapKind::IndirectOutOfBounds { address, len: 4 });
    assert_eq!((t.pc, t.lane), (3, Some(0)));
}

#[test]
fn an_indirect_operand_outside_its_variable_reads_its_neighbour_when_that_is_defined() {
    // X and Y are adjacent GRFs; `X + 32` is Y, which holds zeros when the move reads it.
    let (p, result) = indirect("0x20", "0");
    assert_eq!(offset_of(&p, "Y") - offset_of(&p, "X"), 32);
    let r = result.expect("reading a defined neighbour is allowed");
    assert_eq!(common::whole::<i32>(&r, "Y", 0), vec![0; 8]);
    // An offset that is not a multiple of the element size is misaligned.
    let (p, result) = indirect("0x2", "0");
    let t = trap(result);
    assert_eq!(
        t.kind,
        TrapKind::IndirectMisaligned {
            address: offset_of(&p, "X") + 2,
            align: 4
        }
    );
    assert_eq!(t.lane, Some(0));
}

#[test]
fn an_indirect_read_of_never_written_bytes_names_the_variable() {
    let p = interpreted(
        "\
.decl A v_type=A num_elts=1
.decl X v_type=G type=d num_elts=8 align=GRF
.decl UNSET v_type=G type=d num_elts=8 align=GRF
.decl Y v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) X(0,0)<1> 0x7:d
addr_add (M1_NM, 1) A(0)<1> &X[0] 0x20:uw
mov (M1, 8) Y(0,0)<1> r[A(0), 0]<8;8,1>:d
",
    );
    assert_eq!(offset_of(&p, "UNSET") - offset_of(&p, "X"), 32);
    let t = trap(Launch::new(&p).simd(8).run());
    assert_eq!(
        t.kind,
        TrapKind::Uninitialized {
            var: "UNSET".into()
        }
    );
    assert_eq!((t.pc, t.lane), (2, Some(0)));
}

#[test]
fn an_address_element_outside_the_address_variable_is_a_load_error() {
    let err = load_error(
        "\
.decl A v_type=A num_elts=2
.decl Y v_type=G type=d num_elts=8 align=GRF
mov (M1, 8) Y(0,0)<1> r[A(2), 0]<8;8,1>:d
",
    );
    // At the operand: `r[A(2), 0]...` starts at column 23.
    assert_eq!(err.span, Span::new(3, 23));
    assert_eq!(
        err.message,
        "not executed by this runtime: address element 2 is outside 'A'"
    );
}

const GATHER: &str = "\
.decl ADDR v_type=G type=uq num_elts=8 align=GRF
.decl D v_type=G type=d num_elts=8 align=GRF
svm_gather.4.1 (M1, 8) ADDR.0 D.0
";

fn gather(mut addresses: impl FnMut(u64) -> Vec<u64>) -> Box<Trap> {
    let p = program(GATHER);
    let mut svm = Svm::new();
    let base = svm.alloc_from(&[5i32; 8]);
    trap(
        Launch::new(&p)
            .simd(8)
            .svm(&svm)
            .bind_vector("ADDR", &addresses(base))
            .run(),
    )
}

#[test]
fn a_misaligned_svm_address_traps_with_address_and_alignment() {
    let mut bad = 0;
    let t = gather(|base| {
        bad = base + 4 * 3 + 1;
        (0..8)
            .map(|i| if i == 3 { bad } else { base + 4 * i })
            .collect()
    });
    assert_eq!(
        t.kind,
        TrapKind::Misaligned {
            address: bad,
            align: 4
        }
    );
    assert_eq!((t.pc, t.lane), (0, Some(3)));
    assert_eq!(t.instruction, "svm_gather.4.1 (M1, 8) ADDR.0 D.0");
}

#[test]
fn an_unmapped_svm_address_traps_at_the_first_bad_lane() {
    let t = gather(|base| {
        (0..8)
            .map(|i| if i >= 6 { u64::MAX - 3 } else { base + 4 * i })
            .collect()
    });
    assert_eq!(
        t.kind,
        TrapKind::SvmUnmapped {
            address: u64::MAX - 3
        }
    );
    assert_eq!((t.pc, t.lane), (0, Some(6)));
    // Address 0 is never mapped.
    let t = gather(|base| (0..8).map(|i| if i == 0 { 0 } else { base }).collect());
    assert_eq!(
        (t.kind.clone(), t.lane),
        (TrapKind::SvmUnmapped { address: 0 }, Some(0))
    );
    // Without any SVM bound, every address is unmapped.
    let p = program(GATHER);
    let t = trap(
        Launch::new(&p)
            .simd(8)
            .bind_vector("ADDR", &[0x1_0000u64; 8])
            .run(),
    );
    assert_eq!(t.kind, TrapKind::SvmUnmapped { address: 0x1_0000 });
}

#[test]
fn num_elts_out_of_range_is_a_load_error() {
    // 256 GRFs of elements (the verifier's limit): 8192 with the default 32-byte GRFs.
    let err = load_error(".decl X v_type=G type=d num_elts=8193\n");
    assert_eq!(
        err.to_string(),
        "`X`: num_elts=8193 is out of range (1..=8192: 256 GRFs of elements) at 1:25"
    );
    let err = load_error(".decl X v_type=G type=d num_elts=4294967295\n");
    assert_eq!(
        err.message,
        "`X`: num_elts=4294967295 is out of range (1..=8192: 256 GRFs of elements)"
    );
    let err = load_error(".decl X v_type=G type=d num_elts=0\n");
    assert_eq!(
        err.message,
        "`X`: num_elts=0 is out of range (1..=8192: 256 GRFs of elements)"
    );
    // Beyond u32: the text parser rejects the number, with its location.
    let err = load_error(".decl X v_type=G type=d num_elts=99999999999\n");
    assert_eq!(err.span.line, 1);
    // Each variable is legal (32 KiB); X and Y fill the 64 KiB register file, Z overflows it.
    let err = load_error(
        "\
.decl X v_type=G type=df num_elts=4096
.decl Y v_type=G type=df num_elts=4096
.decl Z v_type=G type=df num_elts=4096
",
    );
    assert_eq!(
        err.to_string(),
        "not executed by this runtime: variables exceed the 64 KiB register file of this model \
         (address variables are UW byte offsets) at 3:1"
    );
}

#[test]
fn execution_sizes_beyond_32_channels_are_rejected() {
    let err = load_error(
        "\
.decl X v_type=G type=d num_elts=64 align=GRF
mov (M5, 32) X(0,0)<1> 0x1:d
",
    );
    assert_eq!(
        err.to_string(),
        "mask offset plus execution size exceeds 32 channels at 2:1"
    );
    // 64 channels is not an execution size at all.
    let err = load_error(
        "\
.decl X v_type=G type=d num_elts=64 align=GRF
mov (M1, 64) X(0,0)<1> 0x1:d
",
    );
    assert_eq!(err.span.line, 2);
}

#[test]
fn predicate_bits_beyond_the_written_width_are_reported_as_uninitialized() {
    // P has 8 declared elements and only its first 8 bits are written; predicating 16
    // channels reads bits 8..15.
    let p = interpreted(
        "\
.decl P v_type=P num_elts=8
.decl X v_type=G type=d num_elts=16 align=GRF
mov (M1, 16) X(0,0)<1> 0x1:d
cmp.eq (M1, 8) P X(0,0)<1;1,0> 0x1:d
(P) mov (M1, 16) X(0,0)<1> 0x2:d
",
    );
    let t = trap(Launch::new(&p).simd(16).run());
    assert_eq!(t.kind, TrapKind::Uninitialized { var: "P".into() });
    assert_eq!((t.pc, t.lane), (2, Some(8)));
    assert_eq!(t.instruction, "(P) mov (M1, 16) X(0,0)<1> 0x2:d");
}

#[test]
fn a_read_of_an_uninitialized_variable_is_reported_with_its_first_lane() {
    let p = interpreted(
        "\
.kernel \"half\"
.decl X v_type=G type=d num_elts=8 align=GRF
.decl Y v_type=G type=d num_elts=8 align=GRF
mov (M1, 4) X(0,0)<1> 0x1:d
add (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x1:d
",
    );
    let t = trap(Launch::new(&p).simd(8).run());
    assert_eq!(t.kind, TrapKind::Uninitialized { var: "X".into() });
    assert_eq!((t.pc, t.lane), (1, Some(4)));
    assert_eq!(
        t.to_string(),
        "trap in kernel 'half' (group 0, thread 0) at pc 1 (5:1: \
         `add (M1, 8) Y(0,0)<1> X(0,0)<1;1,0> 0x1:d`), lane 4: \
         read of uninitialized variable 'X'"
    );
}

#[test]
fn surfaces_must_be_bound_at_launch() {
    let src = "\
.decl S v_type=T num_elts=1
.decl V v_type=G type=ud num_elts=8 align=GRF
oword_ld (2) S 0x0:ud V.0
";
    let p = program(src);
    let t = trap(Launch::new(&p).simd(8).run());
    assert_eq!(t.kind, TrapKind::UnboundSurface("S".into()));
    assert_eq!((t.pc, t.lane), (0, None));
    // Binding it makes the same kernel run.
    let buffer = Buffer::from_slice(&(0..8u32).collect::<Vec<_>>());
    let r = Launch::new(&p)
        .simd(8)
        .bind_surface("S", &buffer)
        .capture("V")
        .run()
        .expect("bound surface");
    assert_eq!(common::whole::<u32>(&r, "V", 0), (0..8).collect::<Vec<_>>());
    // Binding a surface the kernel does not use is a binding error, before anything runs.
    let err = Launch::new(&p)
        .simd(8)
        .bind_surface("T9", &buffer)
        .run()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 'T9': the kernel does not use this surface"
    );
}

#[test]
fn runaway_function_recursion_stops_at_the_depth_limit() {
    // Functions may recurse (FCALL.md); frames live on an explicit stack with a depth limit,
    // so endless recursion neither overflows the host stack nor grows without bound.
    let src = ".kernel \"outer\"\nfcall (M1_NM, 1) f0 0 0\n\
               .global_function \"f0\"\nfcall (M1_NM, 1) f0 0 0\nfret (M1_NM, 1)\n";
    let p = Program::from_text(src, &LoadOptions::default()).unwrap();
    match Launch::new(&p).simd(8).run() {
        Err(LaunchError::Trap(trap)) => {
            assert_eq!(trap.kind, TrapKind::CallTooDeep { limit: 4096 })
        }
        other => panic!("{other:?}"),
    }
}
