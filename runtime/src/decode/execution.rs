//! The one list of what this runtime executes: a verdict for every instruction of `spec/`
//! ([`explicit_verdict`]). The generated [`Opcode`] is open (a build over further documents adds
//! variants), so one fallback arm gives every other instruction the verdict of an entry without an
//! `Opcode` (custom tables): classified by its name and fields (`unsupported::classify`), else
//! "no runtime semantics yet". A test checks that every document of `spec/` has an explicit
//! verdict, and one that every instruction this list calls executed has a case in the decoder.

use visa_isa::Opcode;
use visa_isa::desc::InstrDesc;

use super::unsupported::{self, NoCpuSemantics};

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

/// What the runtime does with `op`: its explicit verdict, or the fallback for instructions of
/// documents this runtime was not written for.
pub fn execution(op: Opcode) -> Execution {
    explicit_verdict(op).unwrap_or_else(|| without_verdict(op.desc()))
}

/// The verdict of a table entry the list does not name (an instruction of a document added to
/// the build, or of a custom table): its class of hardware it needs when its name or fields
/// tell, else "no runtime semantics yet". Never executed.
pub(crate) fn without_verdict(desc: &InstrDesc) -> Execution {
    let field_names: Vec<&str> = desc.fields.iter().map(|d| d.name).collect();
    let class = unsupported::classify(&desc.name.to_ascii_uppercase(), &field_names);
    Execution::NotExecuted(class.unwrap_or(NoCpuSemantics::NotYet))
}

/// The verdict of each instruction of `spec/`; `None` for the others (one arm).
pub(crate) fn explicit_verdict(op: Opcode) -> Option<Execution> {
    use Execution::{Executed, NoEffect};
    Some(match op {
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
        // A symbol's address needs the program's relocations, which a module alone does not
        // carry (`compiled` resolves `faddr` of program data from the zebin before loading).
        Opcode::Faddr => Execution::NotExecuted(NoCpuSemantics::NotYet),
        // Documents that are not in `spec/` (a build over upstream or user documents).
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use visa_isa::Opcode;
    use visa_isa::ast::{FieldValue, Instruction, Span};

    use super::{Execution, NoCpuSemantics, execution};
    use crate::decode::Decoder;
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

    /// Every document of `spec/` has a verdict of its own, not the fallback's: the build reads
    /// `spec/` unless `VISA_SPEC_DIR` names other documents, whose instructions are skipped here.
    #[test]
    fn every_instruction_of_spec_has_an_explicit_verdict() {
        let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let mut documents: Vec<String> = std::fs::read_dir(&spec)
            .expect("spec/ is readable")
            .map(|entry| entry.expect("spec/ entry").file_name())
            .filter_map(|name| name.into_string().ok())
            .filter(|name| name.ends_with(".md") && name != "README.md")
            // The object-format document (its records are `struct` code blocks) holds no
            // instruction.
            .filter(|name| {
                let text = std::fs::read_to_string(spec.join(name)).unwrap_or_default();
                !text.contains("\n```struct")
            })
            .collect();
        documents.sort();
        let mut without_verdict = Vec::new();
        let mut built: Vec<&str> = Vec::new();
        for op in Opcode::ALL {
            let source = op.desc().source;
            if documents.iter().any(|d| d == source) {
                built.push(source);
                if super::explicit_verdict(op).is_none() {
                    without_verdict.push(op);
                }
            }
        }
        assert!(
            without_verdict.is_empty(),
            "instructions of spec/ without a verdict in decode::execution: {without_verdict:?}"
        );
        // Every document of spec/ was built (the check above saw them all).
        built.sort_unstable();
        built.dedup();
        assert_eq!(built, documents, "spec/ documents missing from the build");
    }

    #[test]
    fn instructions_without_a_verdict_are_not_executed_and_say_why() {
        // A custom table's entry with no class of its own, and one the classes know by name.
        let unknown = visa_isa::desc::InstrDesc {
            name: "FROBNICATE",
            ..*Opcode::Mov.desc()
        };
        assert_eq!(
            super::without_verdict(&unknown),
            Execution::NotExecuted(NoCpuSemantics::NotYet)
        );
        let sampler = visa_isa::desc::InstrDesc {
            name: "3D_SAMPLE",
            ..*Opcode::Mov.desc()
        };
        assert_eq!(
            super::without_verdict(&sampler),
            Execution::NotExecuted(NoCpuSemantics::Sampler)
        );
    }

    /// What the list does not execute is refused naming the instruction and the reason. (That
    /// what it executes has a decoder case, `tests/execution_list.rs` checks by loading a
    /// kernel of each.)
    #[test]
    fn what_the_list_does_not_execute_is_refused_with_its_reason() {
        with_decoder(|decoder| {
            for op in Opcode::ALL {
                let instr = bare(op);
                if let Execution::NotExecuted(class) = execution(op) {
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
        });
    }

    #[test]
    fn no_effect_instructions_decode_to_nothing_and_bare_instances_never_panic() {
        with_decoder(|decoder| {
            for op in Opcode::ALL {
                let instr = bare(op);
                let decoded = decoder.decode(op.desc(), &instr);
                match execution(op) {
                    // `wait` checks its mask even though it has no effect; an instruction
                    // without its operands does not decode.
                    Execution::NoEffect if op != Opcode::Wait => {
                        assert!(
                            matches!(decoded, Ok(crate::ops::Op::Nop) | Err(_)),
                            "{op}: {decoded:?}"
                        )
                    }
                    // Missing operands are a load error at the instruction, never a panic.
                    Execution::Executed | Execution::NoEffect => {
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
