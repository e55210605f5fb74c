//! The runtime's list of what it executes (`visa_runtime::execution`) against the generated
//! table: every instruction it calls executed (or without effect) loads in a small valid kernel
//! written here, and an instruction of the table without such a kernel fails the test by name,
//! so a new document needs both a verdict in the list and a kernel here. (That what it does not
//! execute is rejected by name is checked by the unit tests of `decode::execution` and, for
//! entries without an `Opcode`, by `traps.rs`.)

use visa_isa::Opcode;
use visa_runtime::{Execution, LoadOptions, Program, execution};

/// Declarations shared by the kernels below.
const DECLS: &str = "
.decl D v_type=G type=d num_elts=32 align=GRF
.decl E v_type=G type=d num_elts=32 align=GRF
.decl U v_type=G type=ud num_elts=32 align=GRF
.decl V v_type=G type=ud num_elts=64 align=GRF
.decl L v_type=G type=ud num_elts=128 align=GRF
.decl S v_type=G type=w num_elts=32 align=GRF
.decl F v_type=G type=f num_elts=32 align=GRF
.decl G v_type=G type=f num_elts=32 align=GRF
.decl H v_type=G type=hf num_elts=32 align=GRF
.decl B v_type=G type=ub num_elts=32 align=GRF
.decl Q v_type=G type=uq num_elts=16 align=GRF
.decl K v_type=G type=ud num_elts=1
.decl W v_type=G type=ub num_elts=1
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.decl A0 v_type=A num_elts=1
";

/// One kernel body per instruction of the table that the runtime executes.
const KERNELS: &[(Opcode, &str)] = &[
    (Opcode::Add, "add (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x1:d"),
    (
        Opcode::Add3,
        "add3 (M1, 8) D(0,0)<1> E(0,0)<1;1,0> E(0,0)<1;1,0> 0x1:d",
    ),
    (
        Opcode::Addc,
        "addc (M1, 8) U(0,0)<1> V(0,0)<1> U(0,0)<1;1,0> V(1,0)<1;1,0>",
    ),
    (Opcode::AddrAdd, "addr_add (M1_NM, 1) A0(0)<1> &D[8] 0x4:uw"),
    (Opcode::And, "and (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0xff:d"),
    (Opcode::Asr, "asr (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x2:d"),
    (Opcode::Avg, "avg (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x2:d"),
    (Opcode::Barrier, "barrier"),
    (
        Opcode::Bfe,
        "bfe (M1, 8) U(0,0)<1> U(0,0)<1;1,0> 0x4:ud 0x2:ud",
    ),
    (
        Opcode::Bfi,
        "bfi (M1, 8) U(0,0)<1> 0x4:ud 0x2:ud U(0,0)<1;1,0> V(0,0)<1;1,0>",
    ),
    (
        Opcode::Bfn,
        "bfn.x96 (M1, 8) U(0,0)<1> U(0,0)<1;1,0> V(0,0)<1;1,0> V(1,0)<1;1,0>",
    ),
    (Opcode::Bfrev, "bfrev (M1, 8) U(0,0)<1> V(0,0)<1;1,0>"),
    (
        Opcode::Call,
        "call (M1_NM, 1) SUB\nret (M1, 1)\nSUB:\nret (M1, 1)",
    ),
    (Opcode::Cbit, "cbit (M1, 8) U(0,0)<1> V(0,0)<1;1,0>"),
    (Opcode::Cmp, "cmp.lt (M1, 8) P1 D(0,0)<1;1,0> E(0,0)<1;1,0>"),
    (Opcode::Cos, "cos (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (
        Opcode::Div,
        "div (M1, 8) F(0,0)<1> G(0,0)<1;1,0> 0x40000000:f",
    ),
    (
        Opcode::Divm,
        "divm (M1, 8) F(0,0)<1> G(0,0)<1;1,0> 0x40000000:f",
    ),
    (
        Opcode::Dp4a,
        "dp4a (M1, 8) D(0,0)<1> E(0,0)<1;1,0> E(0,0)<1;1,0> E(1,0)<1;1,0>",
    ),
    (Opcode::Dpas, "dpas.s8.s8.8.1 (M1, 16) D.0 D.0 L.0 E(0,0)"),
    (
        Opcode::DwordAtomic,
        "dword_atomic.inc (M1, 8) T6 U.0 %null.0 %null.0 V.0",
    ),
    (Opcode::Exp, "exp (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Fbh, "fbh (M1, 8) U(0,0)<1> V(0,0)<1;1,0>"),
    (Opcode::Fbl, "fbl (M1, 8) U(0,0)<1> V(0,0)<1;1,0>"),
    (
        Opcode::Fcall,
        "fcall (M1_NM, 1) twice 1 1\nret (M1, 1)\n.global_function \"twice\"\nfret (M1_NM, 1)",
    ),
    (Opcode::Fcvt, "fcvt (M1_NM, 16) B(0,0)<1> H(0,0)<1;1,0>"),
    (Opcode::Fence, "fence_global"),
    (Opcode::File, "file \"kernel.cl\""),
    (Opcode::Frc, "frc (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::LscFence, "lsc_fence.ugm.clean.gpu"),
    (
        Opcode::LscUntyped,
        "lsc_load.ugm (M1, 16) U:d32 flat[Q]:a64\nlsc_store.ugm (M1, 16) flat[Q]:a64 U:d64",
    ),
    (
        Opcode::Fret,
        "ret (M1, 1)\n.global_function \"f\"\nfret (M1_NM, 1)",
    ),
    (Opcode::Gather, "gather.1 (M1, 16) T6 0x3:ud U.0 V.0"),
    (
        Opcode::Gather4Scaled,
        "gather4_scaled.r (M1, 16) T6 0x0:ud U.0 V.0",
    ),
    (
        Opcode::GatherScaled,
        "gather_scaled.1 (M1, 8) T6 0x2:ud U.0 V.0",
    ),
    (Opcode::Goto, "(P1) goto (M1, 8) SKIP\nSKIP:"),
    (Opcode::Inv, "inv (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Jmp, "(P1) jmp (M1, 1) SKIP\nSKIP:"),
    (Opcode::Label, "label L0"),
    (Opcode::Lifetime, "lifetime.start D"),
    (Opcode::Loc, "loc 12"),
    (Opcode::Log, "log (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (
        Opcode::Lrp,
        "lrp (M1, 8) F(0,0)<1> G(0,0)<1;1,0> G(1,0)<1;1,0> F(1,0)<1;1,0>",
    ),
    (Opcode::Lzd, "lzd (M1, 8) U(0,0)<1> V(0,0)<1;1,0>"),
    (
        Opcode::Mad,
        "mad (M1, 8) D(0,0)<1> E(0,0)<1;1,0> E(1,0)<1;1,0> 0x7:d",
    ),
    (
        Opcode::Madw,
        "madw (M1, 8) V(0,0)<1> U(0,0)<1;1,0> U(1,0)<1;1,0> 0x7:ud",
    ),
    (Opcode::MinMax, "min (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x0:d"),
    (Opcode::Mod, "mod (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d"),
    (Opcode::Mov, "mov (M1, 8) D(0,0)<1> E(0,0)<1;1,0>"),
    (Opcode::Movs, "movs (M1_NM, 1) T6(0) T7(0)"),
    (Opcode::Mul, "mul (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d"),
    (Opcode::Mulh, "mulh (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d"),
    (Opcode::Nbarrier, "nbarrier.signal 0x1:ub 0x1:uw"),
    (Opcode::Not, "not (M1, 8) D(0,0)<1> E(0,0)<1;1,0>"),
    (Opcode::Or, "or (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d"),
    (Opcode::OwordLd, "oword_ld (1) T6 0x2:ud U.0"),
    (
        Opcode::OwordLdUnaligned,
        "oword_ld_unaligned (2) T6 0x24:ud U.0",
    ),
    (Opcode::OwordSt, "oword_st (2) T6 0x0:ud U.0"),
    (
        Opcode::Plane,
        "plane (M1, 8) F(0,0)<1> G(0,0)<0;1,0> G(1,0)<1;1,0>",
    ),
    (
        Opcode::Pow,
        "pow (M1, 8) F(0,0)<1> G(0,0)<1;1,0> 0x40000000:f",
    ),
    (Opcode::QwGather, "qw_gather.1 (M1, 8) T6 U.0 Q.0"),
    (Opcode::QwScatter, "qw_scatter.1 (M1, 8) T6 U.0 Q.0"),
    (Opcode::Ret, "ret (M1, 1)"),
    (Opcode::Rndd, "rndd (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Rnde, "rnde (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Rndu, "rndu (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Rndz, "rndz (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Rol, "rol (M1, 8) U(0,0)<1> V(0,0)<1;1,0> 0x3:ud"),
    (Opcode::Ror, "ror (M1, 8) U(0,0)<1> V(0,0)<1;1,0> 0x3:ud"),
    (Opcode::Rsqrt, "rsqrt (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (
        Opcode::Sad2,
        "sad2 (M1_NM, 16) S(0,0)<1> B(0,0)<1;1,0> B(0,16)<1;1,0>",
    ),
    (Opcode::Sbarrier, "sbarrier.signal\nsbarrier.wait"),
    (Opcode::Scatter, "scatter.1 (M1, 8) T6 0x1:ud U.0 V.0"),
    (
        Opcode::Scatter4Scaled,
        "scatter4_scaled.r (M1, 16) T6 0x0:ud U.0 V.0",
    ),
    (
        Opcode::ScatterScaled,
        "scatter_scaled.4 (M1, 8) T6 0x0:ud U.0 V.0",
    ),
    (
        Opcode::Sel,
        "(P1) sel (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d",
    ),
    (Opcode::Setp, "setp (M1_NM, 16) P1 0x00F1:uw"),
    (Opcode::Shl, "shl (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d"),
    (Opcode::Shr, "shr (M1, 8) U(0,0)<1> V(0,0)<1;1,0> 0x3:ud"),
    (Opcode::Sin, "sin (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Sqrt, "sqrt (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (Opcode::Sqrtm, "sqrtm (M1, 8) F(0,0)<1> G(0,0)<1;1,0>"),
    (
        Opcode::Srnd,
        "srnd (M1_NM, 16) B(0,0)<1> H(0,0)<1;1,0> B(0,16)<1;1,0>",
    ),
    (
        Opcode::Subb,
        "subb (M1, 8) U(0,0)<1> V(0,0)<1> U(0,0)<1;1,0> V(1,0)<1;1,0>",
    ),
    (
        Opcode::Subroutine,
        "call (M1_NM, 1) S\nret (M1, 1)\nsubroutine S\nret (M1, 1)",
    ),
    (
        Opcode::SvmAtomic,
        "svm_atomic.add.16 (M1_NM, 8) Q.0 U.0 V.0 %null.0",
    ),
    (
        Opcode::RawSend,
        "raw_send (M1, 1) 0xF 1 4 0x2420203:ud V.0 L.0",
    ),
    (
        Opcode::RawSends,
        "raw_sends.3.1.0.0 (M1, 1) 0x0:ud 0x2000004:ud V.0 %null.0 %null.0",
    ),
    (Opcode::SvmBlockLd, "svm_block_ld (2) 0x1000:ud U.0"),
    (Opcode::SvmBlockSt, "svm_block_st (2) 0x1000:ud U.0"),
    (Opcode::SvmGather, "svm_gather.4.1 (M1, 16) Q.0 V.0"),
    (
        Opcode::SvmGather4Scaled,
        "svm_gather4scaled.R (M1, 16) 0x0:ud Q.0 V.0",
    ),
    (Opcode::SvmScatter, "svm_scatter.4.1 (M1, 16) Q.0 V.0"),
    (
        Opcode::SvmScatter4Scaled,
        "svm_scatter4scaled.R (M1, 16) 0x0:ud Q.0 V.0",
    ),
    (
        Opcode::Switchjmp,
        "switchjmp (M1, 1) K(0,0)<0;1,0> (L1, L2)\nL1:\nL2:",
    ),
    (Opcode::Wait, "wait W(0,0)<0;1,0>"),
    (Opcode::Xor, "xor (M1, 8) D(0,0)<1> E(0,0)<1;1,0> 0x3:d"),
    (Opcode::Yield, "yield"),
];

#[test]
fn every_instruction_the_runtime_executes_loads_in_a_kernel() {
    let mut without_kernel = Vec::new();
    let mut failures = Vec::new();
    for op in Opcode::ALL {
        let executed = match execution(op) {
            Execution::Executed | Execution::NoEffect => true,
            Execution::NotExecuted(_) => false,
            other => panic!("{op}: a verdict this test does not know: {other:?}"),
        };
        let kernel = KERNELS.iter().find(|(o, _)| *o == op).map(|(_, k)| *k);
        match (executed, kernel) {
            (true, None) => without_kernel.push(op),
            (true, Some(body)) => {
                // The kernel really holds this instruction.
                let parsed = visa_isa::text::parse(body).expect(body);
                let holds = parsed.stmts.iter().any(|s| {
                    matches!(&s.kind, visa_isa::ast::StmtKind::Instr(i) if i.desc == op.index())
                });
                assert!(holds, "{op}: the kernel does not use it:\n{body}");
                let options = LoadOptions::default().grf_bytes(64);
                if let Err(e) = Program::from_text(&format!("{DECLS}{body}\n"), &options) {
                    failures.push(format!("{op}: {e}"));
                }
            }
            (false, Some(_)) => failures.push(format!("{op}: not executed, yet has a kernel")),
            (false, None) => {}
        }
    }
    assert!(
        without_kernel.is_empty(),
        "executed by the runtime but without a kernel in this test: {without_kernel:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The LSC forms this runtime does not execute are refused at load, naming the mnemonic
/// written (not the first of the instruction's templates) and why.
#[test]
fn lsc_forms_not_executed_are_refused_at_load_with_the_reason() {
    let cases = [
        (
            "lsc_load.ugm (M1, 16) U:d32 bss(K)[U]:a32",
            "lsc_load: `bss` addresses a surface through surface state, and this runtime has no \
             bindless binding API",
        ),
        (
            "lsc_store.ugm (M1, 16) ss(K)[U]:a32 U:d32",
            "lsc_store: `ss` addresses a surface through surface state",
        ),
        (
            "lsc_load.ugm (M1, 16) U:d32 arg[U]:a32",
            "lsc_load: `arg` addresses the indirect kernel-argument area",
        ),
        (
            "lsc_load.slm (M1, 16) U:d32 flat[U]:a16",
            "lsc_load: 16-bit addresses (`a16`)",
        ),
        (
            "lsc_atomic_iinc.ugm (M1, 16) U:d32 bti(K)[U]:a32 %null %null",
            "lsc_atomic_iinc: a binding-table index held in a register",
        ),
        (
            "lsc_load.ugm (M1, 16) U:d32 bti(0x0)[U]:a32",
            "lsc_load: binding-table entry 0 is one of this model's predefined surfaces, not a \
             bound buffer (bind surfaces as T6 and above)",
        ),
        (
            "lsc_load_status.ugm (M1, 16) U:d32 flat[Q]:a64",
            "lsc_load_status: it reports whether pages are resident",
        ),
        (
            "lsc_atomic_bfadd.ugm (M1, 16) U:d32 flat[Q]:a64 U %null",
            "lsc_atomic_bfadd: the bfloat16 atomics work on `d16u32` data",
        ),
        // Typed messages (LSC_TYPED), whatever their form, with the mnemonic written.
        (
            "lsc_load_quad.tgm (M1, 16) V:d32.xy bti(0x7)[U,U]:a32",
            "unsupported instruction 'lsc_load_quad': typed surfaces (element formats, \
             dimensions, array slices and mip levels addressed by u, v, r, lod coordinates) are \
             not modelled here",
        ),
        (
            "lsc_store_quad.tgm (M1, 16) bti(0x7)[U]:a32 U:d32.x",
            "unsupported instruction 'lsc_store_quad': typed surfaces",
        ),
        (
            "lsc_atomic_iadd.tgm (M1, 16) U:d32 bti(0x7)[U,U,U]:a32 U %null",
            "unsupported instruction 'lsc_atomic_iadd': typed surfaces",
        ),
    ];
    for (body, what) in cases {
        let options = LoadOptions::default().grf_bytes(64);
        let err = Program::from_text(&format!("{DECLS}{body}\n"), &options).expect_err(body);
        assert_eq!(
            err.kind,
            visa_runtime::LoadErrorKind::NotExecuted,
            "{body}: {err}"
        );
        assert!(
            err.message
                .contains(&format!("not executed by this runtime: {what}")),
            "{body}: {err}"
        );
    }
}
