//! Native code for the F fast form (`ops::fast::FastFloat`: `add`, `mul`, `mad`) as `f32x4`
//! operations, in the float mode IGC's kernels set (`%cr0` with F denormals kept, rounding to
//! nearest even, not ALT): there the results are the IEEE single-precision operations'
//! (`exec::fast_float` explains why the interpreter's are too). In any other mode, or when a
//! source or result lane is a NaN (whose bits the interpreter defines), the interpreter's handler
//! runs the instruction instead; nothing has been written by then.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, Value, types};

use super::emitter::{Emitter, lanes_in_order};
use super::lower_alu;
use crate::exec::alu::{CR0_ALT_MODE, CR0_KEEP_F_DENORMS};
use crate::exec::rounding::CR0_ROUNDING;
use crate::ops::Op;
use crate::ops::fast::{FastFloat, FastSrc, FloatOp, Region};
use crate::program::Program;
use visa_isa::ast::SrcMod;

/// Whether the host can fuse a multiply and an add (`mad` is compiled only then).
fn host_fuses() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// Whether a fast-form F instruction compiles natively: whole groups of four lanes, a `%cr0`
/// in the register file to check the mode against, and operands inside the file
/// (`lower_alu::fits`).
pub(super) fn fits(program: &Program, op: &Op) -> bool {
    let Op::FastFloat(f) = op else {
        return false;
    };
    let lanes = f.general.exec.size;
    let cr0_inside = program
        .cr0_offset
        .is_some_and(|at| at + 4 <= program.layout.file_size as usize);
    let regions_read =
        (f.srcs.iter()).all(|s| !matches!(s.region, Region::Words(_) | Region::WordPerDword(_)));
    lanes >= 4
        && lanes % 4 == 0
        && cr0_inside
        && regions_read
        && (f.op != FloatOp::Mad || host_fuses())
        && lower_alu::fits(program, op)
}

/// Emits the instruction at `pc`; every path ends in a jump to the next instruction.
pub(super) fn emit(e: &mut Emitter, pc: usize, f: &FastFloat) {
    let Some(cr0_at) = e.program.cr0_offset.and_then(|at| u32::try_from(at).ok()) else {
        e.emit_handler(pc, false);
        return;
    };
    let a = &f.general;
    let slow = e.b.create_block();
    let native = e.b.create_block();
    // The mode: F denormals kept, round to nearest even, not ALT.
    let cr0 = e.load_grf(types::I32, cr0_at);
    let mode_bits = CR0_ALT_MODE | CR0_ROUNDING | CR0_KEEP_F_DENORMS;
    let mode = e.b.ins().band_imm_u(cr0, i64::from(mode_bits));
    let ieee =
        e.b.ins()
            .icmp_imm_u(IntCC::Equal, mode, i64::from(CR0_KEEP_F_DENORMS));
    e.b.ins().brif(ieee, native, &[], slow, &[]);
    e.switch_carrying(native);
    let enables = e.enables(a.exec, a.pred);
    let mut results = Vec::new();
    let mut nan = None;
    for chunk in 0..a.exec.size / 4 {
        let mut v = [None; 3];
        for (slot, src) in v.iter_mut().zip(&f.srcs) {
            *slot = Some(source(e, src, chunk));
        }
        let [x, y, z] = v;
        let (x, y) = (x.unwrap_or_else(|| zero(e)), y.unwrap_or_else(|| zero(e)));
        let result = match f.op {
            FloatOp::Add => e.b.ins().fadd(x, y),
            FloatOp::Mul => e.b.ins().fmul(x, y),
            FloatOp::Mad => {
                let z = z.unwrap_or_else(|| zero(e));
                e.b.ins().fma(x, y, z)
            }
        };
        // A NaN lane anywhere (a source or the result: unordered with itself) sends the
        // instruction to the handler.
        for value in v.into_iter().flatten().chain([result]) {
            let unordered = e.b.ins().fcmp(FloatCC::Unordered, value, value);
            nan = Some(match nan {
                Some(any) => e.b.ins().bor(any, unordered),
                None => unordered,
            });
        }
        results.push(e.b.ins().bitcast(types::I32X4, lanes_in_order(), result));
    }
    let store = e.b.create_block();
    match nan {
        Some(nan) => {
            let any = e.b.ins().vany_true(nan);
            e.b.ins().brif(any, slow, &[], store, &[]);
        }
        None => {
            e.b.ins().jump(store, &[]);
        }
    }
    e.switch_carrying(store);
    lower_alu::write_results(e, a.exec.lanes(), f.dst, &results, enables);
    e.jump_to(pc + 1);
    e.b.switch_to_block(slow);
    e.emit_handler(pc, false);
}

fn zero(e: &mut Emitter) -> Value {
    let zero = e.b.ins().f32const(0.0);
    e.b.ins().splat(types::F32X4, zero)
}

/// Lanes `4 * chunk .. 4 * chunk + 4` of a source, with its modifier, as an `f32x4`.
fn source(e: &mut Emitter, src: &FastSrc, chunk: u32) -> Value {
    let little = lanes_in_order();
    let v = match src.region {
        Region::Contiguous(base) => {
            let bits = e.load_grf(types::I32X4, base + 16 * chunk);
            e.b.ins().bitcast(types::F32X4, little, bits)
        }
        Region::Scalar(base) => {
            let bits = e.load_grf(types::I32, base);
            let value = e.b.ins().bitcast(types::F32, little, bits);
            e.b.ins().splat(types::F32X4, value)
        }
        Region::Imm(bits) => {
            let value = e.b.ins().f32const(f32::from_bits(bits));
            e.b.ins().splat(types::F32X4, value)
        }
        // (`specialise` gives F sources no word or byte regions, and `fits` refuses them.)
        Region::Words(_) | Region::WordPerDword(_) | Region::Bytes(_) | Region::BytePerDword(_) => {
            zero(e)
        }
    };
    match src.modifier {
        SrcMod::Neg => e.b.ins().fneg(v),
        SrcMod::Abs => e.b.ins().fabs(v),
        SrcMod::NegAbs => {
            let abs = e.b.ins().fabs(v);
            e.b.ins().fneg(abs)
        }
        SrcMod::None | SrcMod::Not => v,
    }
}
