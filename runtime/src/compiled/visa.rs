//! Loading a kernel's dumped vISA: its `.input` variables become views of one per-thread
//! payload variable laid out as the hardware delivers the thread payload (`%r0`, the per-thread
//! local ids, then the cross-thread data), so the launch writes the payload as the driver builds
//! it and every input reads its bytes where the compiler placed it.

use visa_isa::Opcode;
use visa_isa::ast::{Align, Decl, DeclKind, DeclSpans, ElemType, Module, Operand, Stmt, StmtKind};
use visa_isa::instrs::view;

use super::CompiledError;
use super::abi::KernelAbi;
use crate::{Engine, JitTier, LoadOptions, Program};

/// The name of the payload variable added to the kernel (not a valid vISA identifier of the
/// compiler's, which names variables `V0042`).
pub(super) const PAYLOAD_VAR: &str = "ThreadPayload";

/// Where the payload lives in the loaded program.
pub(super) struct PayloadMap {
    /// Payload bytes per thread (a multiple of 4 x SIMD bytes).
    pub bytes: u32,
    /// Offset of the cross-thread data in the payload: one GRF plus `PerThreadInputSize`.
    pub cross_thread_start: u32,
}

pub(super) fn load(
    abi: &KernelAbi<'_>,
    text: &str,
    (engine, tier): (Engine, JitTier),
) -> Result<(Program, PayloadMap), CompiledError> {
    let kernel = abi.info.name.clone();
    let mismatch = |message: String| CompiledError::Mismatch {
        kernel: kernel.clone(),
        message,
    };
    let mut module = visa_isa::text::parse(text).map_err(|errors| {
        let first = &errors[0];
        CompiledError::Parse {
            line: first.span.line,
            message: format!("found {}, expected {}", first.found, first.expected),
        }
    })?;
    resolve_faddr(abi, &mut module)?;
    let mut name = None;
    let mut simd = None;
    let mut per_thread_input = None;
    let mut inputs = Vec::new();
    for stmt in &module.stmts {
        match &stmt.kind {
            StmtKind::Kernel { name: n } => name = Some(n.clone()),
            StmtKind::KernelAttr { name: attr, value } => {
                let number = || {
                    value
                        .as_deref()
                        .and_then(|v| v.trim().parse::<u32>().ok())
                        .ok_or_else(|| mismatch(format!("attribute {attr} has no number")))
                };
                match attr.as_str() {
                    "SimdSize" => simd = Some(number()?),
                    "PerThreadInputSize" => per_thread_input = Some(number()?),
                    _ => {}
                }
            }
            StmtKind::Input { name, offset, size } => {
                inputs.push((name.clone(), *offset, *size, stmt.span.line))
            }
            _ => {}
        }
    }
    if name.as_deref() != Some(abi.info.name.as_str()) {
        return Err(mismatch(format!(
            "the vISA text is kernel {}",
            name.map_or_else(|| "without a name".to_string(), |n| format!("'{n}'"))
        )));
    }
    if simd != Some(abi.simd()) {
        return Err(mismatch(format!(
            "the vISA's SimdSize is {simd:?}, the zebin's simd_size {} (pick the dump of that SIMD \
             width)",
            abi.simd()
        )));
    }
    let per_thread_input = per_thread_input.unwrap_or(0);
    if per_thread_input != abi.per_thread_size {
        return Err(mismatch(format!(
            "PerThreadInputSize is {per_thread_input}, the zebin's local ids take {} bytes",
            abi.per_thread_size
        )));
    }
    let grf = abi.grf_bytes();
    let cross_thread_start = grf + per_thread_input;
    let described = cross_thread_start + abi.cross_thread_size;
    let mut covered = described;
    for (input, offset, size, line) in &inputs {
        let end = offset.checked_add(*size).unwrap_or(u32::MAX);
        // Inputs may read the padding after the last entry, up to the end of its GRF.
        if end > described.next_multiple_of(grf) {
            return Err(mismatch(format!(
                "line {line}: .input {input} at {offset} ({size} bytes) lies past the {described} \
                 bytes of payload the zeInfo describes"
            )));
        }
        covered = covered.max(end);
    }
    let bytes = covered
        .next_multiple_of(4 * abi.simd())
        .next_multiple_of(grf);
    rewrite(&mut module, &inputs, bytes, &mismatch)?;
    let options = LoadOptions::default()
        .grf_bytes(grf)
        .platform(abi.device.platform())
        .engine(engine)
        .jit_tier(tier);
    let program = Program::load(&module, &options)?;
    Ok((
        program,
        PayloadMap {
            bytes,
            cross_thread_start,
        },
    ))
}

/// Applies the relocations the kernel's vISA asks for: `faddr SYMBOL DST` (the address of
/// program data, such as a math function's table) becomes a `mov` of the symbol's SVM address,
/// at the same place. A symbol that is not program data (a function) is refused.
fn resolve_faddr(abi: &KernelAbi<'_>, module: &mut Module) -> Result<(), CompiledError> {
    for stmt in &mut module.stmts {
        let StmtKind::Instr(instr) = &stmt.kind else {
            continue;
        };
        let faddr = visa_isa::INSTRUCTIONS
            .get(instr.desc)
            .and_then(crate::decode::opcode_of)
            .filter(|op| *op == Opcode::Faddr)
            .and_then(|op| view::Instr::lift(op, instr).ok());
        let Some(view::Instr::Faddr(faddr)) = faddr else {
            continue;
        };
        let line = stmt.span.line;
        let Operand::Name(symbol) = faddr.func_id else {
            return Err(CompiledError::Parse {
                line,
                message: "faddr takes a symbol".into(),
            });
        };
        let address = abi
            .data
            .symbols
            .iter()
            .find(|(name, _)| name == symbol)
            .map(|(_, address)| *address)
            .ok_or_else(|| CompiledError::Unsupported {
                kernel: abi.info.name.clone(),
                message: format!(
                    "vISA line {line}: faddr of {symbol}, which is not program data (function \
                     addresses and indirect calls are not supported)"
                ),
            })?;
        let dst = visa_isa::text::format_operand(faddr.dst);
        let mut mov =
            visa_isa::text::parse_instruction(&format!("mov (M1_NM, 1) {dst} {address:#x}:uq"))
                .map_err(|e| CompiledError::Parse {
                    line,
                    message: format!("faddr's destination `{dst}`: {e}"),
                })?;
        mov.span = instr.span;
        stmt.kind = StmtKind::Instr(mov);
    }
    Ok(())
}

/// Declares the payload variable, makes each input (and each alias of `%r0`) a view of it, and
/// drops the `.input` lines.
fn rewrite(
    module: &mut Module,
    inputs: &[(String, u32, u32, u32)],
    bytes: u32,
    mismatch: &impl Fn(String) -> CompiledError,
) -> Result<(), CompiledError> {
    let mut first_decl = None;
    let mut placed = vec![false; inputs.len()];
    for (position, stmt) in module.stmts.iter_mut().enumerate() {
        let StmtKind::Decl(decl) = &mut stmt.kind else {
            continue;
        };
        first_decl.get_or_insert(position);
        let DeclKind::General { align, alias, .. } = &mut decl.kind else {
            if inputs.iter().any(|(n, ..)| *n == decl.name) {
                return Err(mismatch(format!(
                    "line {}: input {} is a surface, sampler, address or predicate variable",
                    stmt.span.line, decl.name
                )));
            }
            continue;
        };
        if let Some((base, _)) = alias
            && base.eq_ignore_ascii_case("%r0")
        {
            // `%r0` is the payload's first GRF.
            *base = PAYLOAD_VAR.to_string();
            continue;
        }
        if let Some(i) = inputs.iter().position(|(n, ..)| *n == decl.name) {
            if alias.is_some() {
                return Err(mismatch(format!(
                    "line {}: input {} is an alias",
                    stmt.span.line, decl.name
                )));
            }
            *alias = Some((PAYLOAD_VAR.to_string(), inputs[i].1));
            *align = None;
            placed[i] = true;
        }
    }
    if let Some(i) = placed.iter().position(|p| !p) {
        return Err(mismatch(format!(
            "line {}: .input {} names no general variable",
            inputs[i].3, inputs[i].0
        )));
    }
    module
        .stmts
        .retain(|stmt| !matches!(stmt.kind, StmtKind::Input { .. }));
    // IGC opens the kernel body with `.function "_main_0"` and its label: that function is the
    // kernel's entry, not a subroutine reached by `call`.
    if let Some(first) = module
        .stmts
        .iter()
        .position(|s| matches!(s.kind, StmtKind::Instr(_) | StmtKind::Function { .. }))
        && matches!(
            module.stmts[first].kind,
            StmtKind::Function { global: false, .. }
        )
    {
        module.stmts.remove(first);
    }
    let payload = Stmt {
        kind: StmtKind::Decl(Decl {
            name: PAYLOAD_VAR.to_string(),
            kind: DeclKind::General {
                ty: ElemType::Ud,
                num_elts: bytes / 4,
                align: Some(Align {
                    written: "GRF".to_string(),
                    bytes: 0,
                    grfs: 1,
                }),
                alias: None,
            },
            attrs: Vec::new(),
            spans: DeclSpans::default(),
        }),
        span: Default::default(),
    };
    let at = first_decl.unwrap_or(module.stmts.len());
    module.stmts.insert(at, payload);
    Ok(())
}
