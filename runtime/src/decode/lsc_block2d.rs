//! The 2D block messages of LSC_UNTYPED.md, `lsc_load_block2d` and `lsc_store_block2d`, on
//! untyped global memory (`ugm`) through a flat surface `flat[BASE,W,H,P,X,Y]`: BASE a 64-bit
//! SVM address, W/H/P the surface width (bytes), height (rows) and pitch (bytes), each minus 1
//! as the message holds them, X the start column in elements and Y the start row. The shape is
//! resolved here once (`ops::block2d`); the operands are scalars or immediates read when the
//! message runs (`exec::block2d`). The payload form `flat[DESC + (x,y)]` becomes the op raw
//! sends use (`Block2dPayload`): the same six values and the block's dimensions, read from the
//! payload register when the message runs. Every other 2D block form is refused, naming what it
//! uses.

use visa_isa::instrs::view;
use visa_isa::instrs::view::lsc_untyped::{
    AddrType as LscUntypedAddrType, DataOrder as LscUntypedDataOrder, LscSfid as LscUntypedLscSfid,
    Vnni,
};

use super::lsc::required;
use super::{DataSize, Decoder, Fields};
use crate::error::LoadError;
use crate::ops::Op;
use crate::ops::block2d::{Block2d, Block2dPayload, Block2dShape, PAYLOAD_BYTES};

impl Decoder<'_> {
    pub(super) fn decode_lsc_block2d(
        &mut self,
        f: &Fields,
        i: &view::LscUntyped,
        operation: &str,
        store: bool,
    ) -> Result<Op, LoadError> {
        let refuse = |what: String| {
            f.not_executed(format!(
                "{operation} {what}: of the 2D block messages this runtime executes those on \
                 ugm through a flat surface (flat[BASE,W,H,P,X,Y]) of d8, d16, d32 or d64 \
                 elements, with execution size 1"
            ))
        };
        if i.lsc_sfid != LscUntypedLscSfid::Ugm {
            return Err(refuse(format!("on {}", i.lsc_sfid.text())));
        }
        match i.addr_type {
            Some(LscUntypedAddrType::Flat) => {}
            other => {
                let written = other.map_or("none", |a| a.text());
                return Err(refuse(format!("with {written} addresses")));
            }
        }
        let elem_bytes = match DataSize::of(i.data_size) {
            Some(size) if size.plain() => size.mem_bytes,
            _ => return Err(refuse(format!("of {} elements", i.data_size.text()))),
        };
        let exec = f.exec(i.exec_size)?;
        if exec.size != 1 {
            return Err(refuse(format!("with execution size {}", exec.size)));
        }
        let transpose = i.data_order == LscUntypedDataOrder::T;
        let vnni = i.vnni == Some(Vnni::T);
        // A left-out block count is one block.
        let blocks = i.blocks.filter(|n| *n > 0).map_or(1, u32::from);
        let dimension = |value: Option<u16>, what: &str| -> Result<u32, LoadError> {
            value
                .filter(|n| *n > 0)
                .map(u32::from)
                .ok_or_else(|| f.err(format!("{operation}: the block {what} must be at least 1")))
        };
        let shape = Block2dShape {
            elem_bytes,
            blocks,
            width: dimension(i.block_width, "width")?,
            height: dimension(i.block_height, "height")?,
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
        let pred = self.pred(f, i.pred)?;
        let (data_op, bytes) = if store {
            (i.src1_data, shape.store_bytes())
        } else {
            (i.dst_data, shape.load_bytes())
        };
        let len = u32::try_from(bytes).map_err(|_| {
            refuse(format!(
                "of {bytes} register bytes (more than any variable holds)"
            ))
        })?;
        if let Some(payload) = &i.addr_payload {
            // `flat[DESC + (x,y)]`: the surface and the block's dimensions are the payload's,
            // read when the message runs; the data operand's shape sizes the registers.
            let data = self.raw(f, required(f, data_op)?, len)?;
            if store && data.null {
                return Err(f.err(format!("{operation}: the stored data cannot be %null")));
            }
            return Ok(Op::Block2dPayload(Box::new(Block2dPayload {
                store,
                exec,
                pred,
                elem_bytes,
                transpose,
                vnni,
                grf_bytes: self.layout.grf_bytes,
                payload: self.raw(f, payload, PAYLOAD_BYTES)?,
                offset: [i.addr_payload_x.unwrap_or(0), i.addr_payload_y.unwrap_or(0)],
                data,
                data_bytes: len,
                message: operation.to_string(),
            })));
        }
        // In the order `Block2d::surface` keeps them.
        let mut scalar = |op| self.src(f, required(f, op)?, 1, true);
        let surface = [
            scalar(i.surface_base_addr)?,
            scalar(i.surface_width)?,
            scalar(i.surface_height)?,
            scalar(i.surface_pitch)?,
            scalar(i.src0_addr_x)?,
            scalar(i.src0_addr_y)?,
        ];
        let data = self.raw(f, required(f, data_op)?, len)?;
        if store && data.null {
            return Err(f.err(format!("{operation}: the stored data cannot be %null")));
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
