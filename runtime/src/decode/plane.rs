//! `plane` (PLANE.md): the coefficients and coordinates are read at fixed positions from the
//! start of each source, whatever region is written, so both sources are decoded as
//! contiguous runs (bounds-checked as such) and then split into the five values each channel
//! reads: `a`, `b`, `c` (elements 0, 1, 3 of src0) and `u`, `v` (per block of eight lanes,
//! sixteen floats of src1: eight `u`, then eight `v`).

use visa_isa::ast::{ElemType, Operand, Region};
use visa_isa::instrs::view;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Op, Plane, Src, SrcKind};

/// Floats in one block of src1: eight `u` then eight `v`.
const BLOCK: u32 = 16;

impl Decoder<'_> {
    pub(super) fn decode_plane(&mut self, f: &Fields, i: &view::Plane) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        if exec.size != 8 && exec.size != 16 {
            return Err(f.err(format!(
                "plane: the execution size must be 8 or 16, not {}",
                exec.size
            )));
        }
        let pred = self.pred(f, i.pred)?;
        let dst = self.dst(f, i.dst, exec.size)?;
        let coefficients = self.contiguous(f, ("src0", i.src0), 4, 16)?;
        let grf = self.layout.grf_bytes;
        let coordinates = self.contiguous(f, ("src1", i.src1), exec.size / 8 * BLOCK, grf)?;
        for (name, ty) in [
            ("<dst>", dst.ty),
            ("<src0>", coefficients.ty),
            ("<src1>", coordinates.ty),
        ] {
            if ty != ElemType::F {
                return Err(f.err(format!("plane: {name} must have type F, not {ty}")));
            }
        }
        let element = |src: &Src, index: u32| at(src, index * 4, (0, 1, 0));
        // Lane `i` reads element `16 * (i / 8) + i % 8` for u and 8 more for v.
        let lanes = (BLOCK, 8, 1);
        Ok(Op::Plane(Box::new(Plane {
            exec,
            pred,
            saturate: f.instr.saturate,
            dst,
            coefficients: [
                element(&coefficients, 0),
                element(&coefficients, 1),
                element(&coefficients, 3),
            ],
            u: at(&coordinates, 0, lanes),
            v: at(&coordinates, 8 * 4, lanes),
        })))
    }

    /// Source `name` read as `count` contiguous elements from its start (its region ignored),
    /// checked to lie inside its variable and, when direct, to start on an `align`-byte
    /// boundary.
    fn contiguous(
        &mut self,
        f: &Fields,
        (name, written): (&str, &Operand),
        count: u32,
        align: u32,
    ) -> Result<Src, LoadError> {
        let contiguous = Some(Region {
            vs: Some(1),
            width: Some(1),
            hs: 0,
        });
        let mut op = written.clone();
        match &mut op {
            Operand::General { var, region, .. } if var != "%null" => *region = contiguous,
            Operand::Indirect { region, .. } => *region = contiguous,
            other => {
                return Err(f.err(format!(
                    "plane: <{name}> must be a general or indirect operand, found {other:?}"
                )));
            }
        }
        let src = self.src(f, &op, count, false)?;
        if let SrcKind::Direct { base, .. } = src.kind
            && !base.is_multiple_of(align)
        {
            return Err(f.err(format!(
                "plane: <{name}> must start on a {align}-byte boundary"
            )));
        }
        Ok(src)
    }
}

/// `src` moved `bytes` further and given the region `(vs, w, hs)`.
fn at(src: &Src, bytes: u32, (vs, w, hs): (u32, u32, u32)) -> Src {
    let kind = match src.kind {
        SrcKind::Direct { base, .. } => SrcKind::Direct {
            base: base + bytes,
            vs,
            w,
            hs,
        },
        SrcKind::Indirect { addr, offset, .. } => SrcKind::Indirect {
            addr,
            offset: offset + bytes as i32,
            vs,
            w,
            hs,
        },
        ref other => other.clone(),
    };
    Src {
        kind,
        ty: src.ty,
        modifier: src.modifier,
    }
}
