//! The 2D block messages of LSC_UNTYPED.md, `lsc_load_block2d` and `lsc_store_block2d`, on
//! untyped global memory (`ugm`) through a flat surface `flat[BASE,W,H,P,X,Y]`: BASE a 64-bit
//! SVM address, W/H/P the surface width (bytes), height (rows) and pitch (bytes), each minus 1
//! as the message holds them, X the start column in elements and Y the start row. The shape is
//! resolved here once (`ops::block2d`); the operands are scalars or immediates read when the
//! message runs (`exec::block2d`). Every other 2D block form is refused, naming what it uses.

use visa_isa::ast::FieldValue;

use super::{DataSize, Decoder, Fields};
use crate::error::LoadError;
use crate::ops::Op;
use crate::ops::block2d::{Block2d, Block2dShape};

/// The surface operands in the order `Block2d::surface` keeps them.
const SURFACE_FIELDS: [&str; 6] = [
    "SurfaceBaseAddr",
    "SurfaceWidth",
    "SurfaceHeight",
    "SurfacePitch",
    "Src0AddrX",
    "Src0AddrY",
];

/// `Some(store)` when `operation` (an `LscSubOp` token) is a 2D block message.
pub(super) fn block2d_operation(operation: &str) -> Option<bool> {
    match operation {
        "lsc_load_block2d" => Some(false),
        "lsc_store_block2d" => Some(true),
        _ => None,
    }
}

impl Decoder<'_> {
    pub(super) fn decode_lsc_block2d(
        &mut self,
        f: &Fields,
        operation: &str,
        store: bool,
    ) -> Result<Op, LoadError> {
        let word = |name: &str| f.code_token(name);
        let refuse = |what: String| {
            f.not_executed(format!(
                "{operation} {what}: of the 2D block messages this runtime executes those on \
                 ugm through a flat surface (flat[BASE,W,H,P,X,Y]) of d8, d16, d32 or d64 \
                 elements, with execution size 1"
            ))
        };
        for (field, executed) in [("LscSFID", "ugm"), ("AddrType", "flat")] {
            let token = word(field)?;
            if token != executed {
                return Err(refuse(format!("with {field} {token}")));
            }
        }
        let data_size = word("DataSize")?;
        let elem_bytes = match DataSize::of(data_size) {
            Some(size) if size.plain() => size.mem_bytes,
            _ => return Err(refuse(format!("of {data_size} elements"))),
        };
        let exec = f.exec()?;
        if exec.size != 1 {
            return Err(refuse(format!("with execution size {}", exec.size)));
        }
        let transpose = word("DataOrder")? == "t";
        let vnni = word("VNNI")? == "t";
        // A left-out block count is one block.
        let blocks = match f.get("Blocks") {
            Some(FieldValue::Int(n)) if *n > 0 => *n,
            _ => 1,
        };
        let dimension = |name: &str| -> Result<u32, LoadError> {
            u32::try_from(f.int(name)?)
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| f.err(format!("{operation}: {name} must be at least 1")))
        };
        let shape = Block2dShape {
            elem_bytes,
            blocks: u32::try_from(blocks)
                .map_err(|_| f.err(format!("{operation}: {blocks} blocks")))?,
            width: dimension("BlockWidth")?,
            height: dimension("BlockHeight")?,
            transpose,
            vnni,
            grf_bytes: self.layout.grf_bytes,
        };
        if store && (shape.transpose || shape.vnni || shape.blocks != 1) {
            return Err(refuse(
                "that is transposed, VNNI-transformed or of several blocks (a store moves one \
                 block in row order)"
                    .to_string(),
            ));
        }
        if vnni {
            let e = shape.elems_per_dword();
            let (along, count) = if transpose {
                ("width", shape.width)
            } else {
                ("height", shape.height)
            };
            if e == 0 {
                return Err(refuse(
                    "with VNNI of d64 elements (VNNI packs several elements in a dword)"
                        .to_string(),
                ));
            }
            if !count.is_multiple_of(e) {
                return Err(refuse(format!(
                    "with VNNI and a block {along} of {count}: VNNI packs {e} elements of \
                     consecutive {} in a dword, so the {along} must be a multiple of {e}",
                    if transpose { "columns" } else { "rows" }
                )));
            }
        }
        let pred = self.pred(f)?;
        let mut operands = Vec::with_capacity(SURFACE_FIELDS.len());
        for name in SURFACE_FIELDS {
            operands.push(self.src(f, f.operand(name)?, 1, true)?);
        }
        let surface: [_; 6] = operands
            .try_into()
            .map_err(|_| f.err(format!("{operation}: six surface operands expected")))?;
        let (field, bytes) = if store {
            ("Src1Data", shape.store_bytes())
        } else {
            ("DstData", shape.load_bytes())
        };
        let len = u32::try_from(bytes).map_err(|_| {
            refuse(format!(
                "of {bytes} register bytes (more than any variable holds)"
            ))
        })?;
        let data = self.raw(f, f.operand(field)?, len)?;
        if store && data.null {
            return Err(f.err(format!("{operation}: Src1Data cannot be %null")));
        }
        Ok(Op::Block2d(Box::new(Block2d {
            store,
            exec,
            pred,
            shape,
            surface,
            data,
        })))
    }
}
