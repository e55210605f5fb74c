//! The one list of what this runtime executes: a verdict for every instruction of the generated
//! table ([`Opcode`]). The match has no wildcard arm, so a document added to `spec/` without a
//! verdict here does not compile (the error names the new `Opcode` variant); a test checks that
//! every instruction this list calls executed has a case in the decoder. Entries without an
//! `Opcode` (custom tables, documents unknown when the crate was built) are classified by their
//! names and fields instead (`unsupported::classify`).

use visa_isa::Opcode;

use super::unsupported::NoCpuSemantics;

/// What the runtime does with an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Execution {
    /// Decoded at load into a form both engines execute.
    Executed,
    /// Accepted and checked at load, with no effect on this machine: declarations and debug
    /// information, hints, and orderings this machine already guarantees (the crate docs say
    /// why for each).
    NoEffect,
    /// Valid vISA without CPU semantics: the loader rejects it with a
    /// [`crate::LoadErrorKind::NotExecuted`] error naming the instruction and the reason.
    NotExecuted(NoCpuSemantics),
}

/// What the runtime does with `op`: the single list, exhaustive over the generated table.
pub fn execution(op: Opcode) -> Execution {
    use Execution::{Executed, NoEffect};
    match op {
        // Arithmetic, logic, bit manipulation, comparisons and moves.
        Opcode::Add
        | Opcode::Add3
        | Opcode::Addc
        | Opcode::AddrAdd
        | Opcode::And
        | Opcode::Asr
        | Opcode::Avg
        | Opcode::Bfe
        | Opcode::Bfi
        | Opcode::Bfn
        | Opcode::Bfrev
        | Opcode::Cbit
        | Opcode::Cmp
        | Opcode::Div
        | Opcode::Dp4a
        | Opcode::Fbh
        | Opcode::Fbl
        | Opcode::Lzd
        | Opcode::Mad
        | Opcode::Madw
        | Opcode::MinMax
        | Opcode::Mod
        | Opcode::Mov
        | Opcode::Movs
        | Opcode::Mul
        | Opcode::Mulh
        | Opcode::Not
        | Opcode::Or
        | Opcode::Rol
        | Opcode::Ror
        | Opcode::Sad2
        | Opcode::Sel
        | Opcode::Setp
        | Opcode::Shl
        | Opcode::Shr
        | Opcode::Subb
        | Opcode::Xor => Executed,
        // Floating-point math, rounding and conversions.
        Opcode::Cos
        | Opcode::Divm
        | Opcode::Dpas
        | Opcode::Exp
        | Opcode::Fcvt
        | Opcode::Frc
        | Opcode::Inv
        | Opcode::Log
        | Opcode::Lrp
        | Opcode::Plane
        | Opcode::Pow
        | Opcode::Rndd
        | Opcode::Rnde
        | Opcode::Rndu
        | Opcode::Rndz
        | Opcode::Rsqrt
        | Opcode::Sin
        | Opcode::Sqrt
        | Opcode::Sqrtm
        | Opcode::Srnd => Executed,
        // Control flow and synchronisation.
        Opcode::Barrier
        | Opcode::Call
        | Opcode::Fcall
        | Opcode::Fret
        | Opcode::Goto
        | Opcode::Jmp
        | Opcode::Nbarrier
        | Opcode::Ret
        | Opcode::Sbarrier
        | Opcode::Subroutine
        | Opcode::Switchjmp => Executed,
        // Memory messages.
        Opcode::DwordAtomic
        | Opcode::Gather
        | Opcode::Gather4Scaled
        | Opcode::GatherScaled
        | Opcode::OwordLd
        | Opcode::OwordLdUnaligned
        | Opcode::OwordSt
        | Opcode::QwGather
        | Opcode::QwScatter
        | Opcode::Scatter
        | Opcode::Scatter4Scaled
        | Opcode::ScatterScaled
        | Opcode::SvmAtomic
        | Opcode::SvmBlockLd
        | Opcode::SvmBlockSt
        | Opcode::SvmGather
        | Opcode::SvmGather4Scaled
        | Opcode::SvmScatter
        | Opcode::SvmScatter4Scaled => Executed,
        // Labels, debug information and lifetimes; `fence` and `lsc_fence` (accesses are
        // already ordered here), `yield` (a scheduling hint), `wait` (no thread-space
        // dependencies; its mask is still checked).
        Opcode::Fence
        | Opcode::LscFence
        | Opcode::File
        | Opcode::Label
        | Opcode::Lifetime
        | Opcode::Loc
        | Opcode::Wait
        | Opcode::Yield => NoEffect,
        // The LSC messages of Xe-HPG and later: the forms `decode::lsc` lists; the others are
        // refused at load as not executed, naming the form.
        Opcode::LscUntyped => Executed,
        // Typed LSC messages address elements of typed surfaces, which this runtime does not
        // model.
        Opcode::LscTyped => Execution::NotExecuted(NoCpuSemantics::TypedSurface),
        // The messages of spec/messages/ that `decode::raw_send` lists; the others are refused
        // at load, naming the decoded message.
        Opcode::RawSend | Opcode::RawSends => Executed,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use visa_isa::Opcode;
    use visa_isa::ast::{FieldValue, Instruction, Span};

    use super::{Execution, execution};
    use crate::decode::{Decoder, Fields};
    use crate::error::LoadErrorKind;
    use crate::layout::Layout;

    /// An instance of `op` with every field absent: enough to reach the decoder's case.
    fn bare(op: Opcode) -> Instruction {
        Instruction {
            desc: op.index(),
            saturate: false,
            fields: vec![FieldValue::Absent; op.desc().fields.len()],
            span: Span::new(4, 2),
            field_spans: Vec::new(),
            element_spans: Vec::new(),
        }
    }

    /// Runs `test` with a decoder over an empty layout (32-byte GRFs, no labels or functions).
    fn with_decoder(test: impl FnOnce(&mut Decoder)) {
        let mut layout = Layout::new(32);
        let labels = HashMap::new();
        let functions = HashMap::new();
        test(&mut Decoder {
            layout: &mut layout,
            labels: &labels,
            functions: &functions,
        });
    }

    #[test]
    fn the_list_agrees_with_the_decoder_for_every_instruction_of_the_table() {
        with_decoder(|decoder| {
            let mut without_case = Vec::new();
            for op in Opcode::ALL {
                let instr = bare(op);
                let f = Fields {
                    desc: op.desc(),
                    instr: &instr,
                };
                match execution(op) {
                    Execution::Executed | Execution::NoEffect => {
                        if decoder.decode_opcode(op, &f).is_none() {
                            without_case.push(op);
                        }
                    }
                    Execution::NotExecuted(class) => {
                        let err = decoder.decode(op.desc(), &instr).unwrap_err();
                        assert_eq!(err.kind, LoadErrorKind::NotExecuted, "{op}");
                        // Named by its name or by the mnemonic of one of its templates.
                        let name = op.name().to_ascii_lowercase();
                        let named = std::iter::once(name.as_str())
                            .chain(op.desc().syntax.iter().map(|s| s.mnemonic))
                            .any(|m| err.message.contains(&format!("'{m}'")));
                        assert!(named, "{err}");
                        assert!(err.message.contains(class.reason()), "{err}");
                    }
                }
            }
            assert!(
                without_case.is_empty(),
                "executed by the list but without a decoder case: {without_case:?}"
            );
        });
    }

    #[test]
    fn no_effect_instructions_decode_to_nothing_and_bare_instances_never_panic() {
        with_decoder(|decoder| {
            for op in Opcode::ALL {
                let instr = bare(op);
                let decoded = decoder.decode(op.desc(), &instr);
                match execution(op) {
                    // `wait` checks its mask even though it has no effect.
                    Execution::NoEffect if op != Opcode::Wait => {
                        assert!(
                            matches!(decoded, Ok(crate::ops::Op::Nop)),
                            "{op}: {decoded:?}"
                        )
                    }
                    // Missing operands are a load error at the instruction, never a panic.
                    Execution::Executed => {
                        if let Err(err) = decoded {
                            assert_eq!(err.span, Span::new(4, 2), "{op}: {err}");
                            assert!(!err.message.contains("no case"), "{op}: {err}");
                        }
                    }
                    _ => {}
                }
            }
        });
    }
}
