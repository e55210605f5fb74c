//! `lsc_load_block2d` / `lsc_store_block2d` (LSC_UNTYPED.md) on a flat surface in SVM.
//!
//! The surface is `rows = H + 1` rows of `W + 1` bytes, row `r` starting at `BASE + r * (P + 1)`
//! (the operands are minus-1 values, as the message holds them). Element `x` of row `y` of
//! block `b` is the element at column `X + b * width + x` (in elements) of surface row `Y + y`.
//! An element not wholly inside the surface reads 0 and is not written; the part of a row inside
//! it goes through the range-checked SVM access, so a surface row outside every SVM buffer traps
//! like any SVM access. A load writes all its registers (the padding of rows and blocks with
//! zeros) after every read succeeded.

use super::access::{MemCtx, svm_fault};
use crate::error::Fault;
use crate::error::TrapKind;
use crate::machine::Thread;
use crate::ops::Raw;
use crate::ops::block2d::{Block2d, Block2dPayload, Block2dShape, Block2dSlots, PAYLOAD_BYTES};
use visa_isa::messages::lsc;

/// The surface a message addresses, from its operands.
struct Surface {
    base: u64,
    /// Elements wholly inside one row.
    columns: i64,
    rows: i64,
    pitch: u64,
    x: i64,
    y: i64,
}

impl Surface {
    /// For row `y` and the `width` elements from column `first` of a block: the surface row
    /// and the columns `[lo, hi)` of those inside the surface, if any.
    fn clip(&self, y: u32, first: i64, width: u32) -> Option<(u64, i64, i64)> {
        let row = self.y + i64::from(y);
        let lo = first.max(0);
        let hi = (first + i64::from(width)).min(self.columns);
        (0..self.rows)
            .contains(&row)
            .then_some((row as u64, lo, hi))
            .filter(|_| lo < hi)
    }
}

impl Thread<'_> {
    fn block2d_surface(&self, b: &Block2d) -> Result<Surface, Fault> {
        let [base, width, height, pitch, x, y] = &b.surface;
        let minus_one =
            |src| -> Result<u64, Fault> { Ok(u64::from(self.scalar_u64(src)? as u32) + 1) };
        let signed =
            |src| -> Result<i64, Fault> { Ok(i64::from(self.scalar_u64(src)? as u32 as i32)) };
        let elem = u64::from(b.shape.elem_bytes);
        Ok(Surface {
            base: self.scalar_u64(base)?,
            columns: (minus_one(width)? / elem) as i64,
            rows: minus_one(height)? as i64,
            pitch: minus_one(pitch)?,
            x: signed(x)?,
            y: signed(y)?,
        })
    }

    pub(crate) fn exec_block2d(&mut self, b: &Block2d, mem: &MemCtx) -> Result<(), Fault> {
        let enables = self.channel_enables(b.exec, b.pred)?;
        // A prefetch (`%null` destination) has no effect here.
        if enables & 1 == 0 || b.data.null {
            return Ok(());
        }
        let surface = self.block2d_surface(b)?;
        self.move_block2d(b.store, b.shape, &surface, &b.data, mem)
    }

    /// A 2D block message addressed by a payload: the surface and the block shape are read
    /// from the payload register (spec/messages/LSC.md) now, and the shape is checked against
    /// the message's registers.
    pub(crate) fn exec_block2d_payload(
        &mut self,
        b: &Block2dPayload,
        mem: &MemCtx,
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(b.exec, b.pred)?;
        if enables & 1 == 0 || b.data.null {
            return Ok(());
        }
        let mut bytes = [0u8; PAYLOAD_BYTES as usize];
        self.read_raw(&b.payload, 0, &mut bytes, None)?;
        let p = lsc::Payload(&bytes);
        let fail = |problem: String| {
            Fault::new(TrapKind::RawSend {
                message: b.message.clone(),
                problem,
            })
        };
        let field = |v: Option<u64>| v.ok_or_else(|| fail("the payload is too short".into()));
        let shape = Block2dShape {
            elem_bytes: b.elem_bytes,
            blocks: field(p.array_length())? as u32 + 1,
            width: field(p.block_width())? as u32 + 1,
            height: field(p.block_height())? as u32 + 1,
            transpose: b.transpose,
            vnni: b.vnni,
            grf_bytes: b.grf_bytes,
        };
        let e = shape.elems_per_dword();
        let along = if shape.transpose {
            shape.width
        } else {
            shape.height
        };
        if b.store && (shape.transpose || shape.vnni || shape.blocks != 1) {
            return Err(fail("a store moves one block in row order".into()));
        }
        if shape.vnni && (e == 0 || !along.is_multiple_of(e)) {
            return Err(fail(format!(
                "VNNI packs {e} elements in a dword; the block of {}x{} does not divide",
                shape.width, shape.height
            )));
        }
        let needed = if b.store {
            shape.store_bytes()
        } else {
            shape.load_bytes()
        };
        let held = u64::from(b.data_bytes);
        if needed > held {
            return Err(fail(format!(
                "{} block(s) of {}x{} take {needed} register bytes, the message's registers \
                 hold {held}",
                shape.blocks, shape.width, shape.height
            )));
        }
        let elem = u64::from(shape.elem_bytes);
        let surface = Surface {
            base: field(p.surface_base())?,
            columns: ((field(p.surface_width())? as u32 as u64 + 1) / elem) as i64,
            rows: field(p.surface_height())? as u32 as i64 + 1,
            pitch: field(p.surface_pitch())? as u32 as u64 + 1,
            // The immediate offset is added to the payload's dword (32-bit wrapping, as the
            // compiler's emulation of it does before Xe2).
            x: i64::from((field(p.block_x())? as u32 as i32).wrapping_add(b.offset[0])),
            y: i64::from((field(p.block_y())? as u32 as i32).wrapping_add(b.offset[1])),
        };
        self.move_block2d(b.store, shape, &surface, &b.data, mem)
    }

    fn move_block2d(
        &mut self,
        store: bool,
        shape: Block2dShape,
        surface: &Surface,
        data: &Raw,
        mem: &MemCtx,
    ) -> Result<(), Fault> {
        let size = shape.elem_bytes as usize;
        let slots = shape.slots();
        let mut span = Vec::new();
        if store {
            for y in 0..shape.height {
                let Some((row, lo, hi)) = surface.clip(y, surface.x, shape.width) else {
                    continue;
                };
                span.clear();
                span.resize((hi - lo) as usize * size, 0);
                // (A store moves one block in row order, as decode and the payload check
                // require: the row's elements are contiguous in the registers.)
                let slot = slots.slot(0, y, (lo - surface.x) as u32);
                self.read_raw(data, slot * shape.elem_bytes, &mut span, None)?;
                let address = surface
                    .base
                    .wrapping_add(row.wrapping_mul(surface.pitch))
                    .wrapping_add(lo as u64 * size as u64);
                mem.svm
                    .write(address, &span)
                    .map_err(|e| Fault::new(svm_fault(e, address, span.len())))?;
            }
            return Ok(());
        }
        let mut image = vec![0u8; shape.load_bytes() as usize];
        for block in 0..shape.blocks {
            let first = surface.x + i64::from(block) * i64::from(shape.width);
            for y in 0..shape.height {
                let Some((row, lo, hi)) = surface.clip(y, first, shape.width) else {
                    continue;
                };
                span.clear();
                span.resize((hi - lo) as usize * size, 0);
                let address = surface
                    .base
                    .wrapping_add(row.wrapping_mul(surface.pitch))
                    .wrapping_add(lo as u64 * size as u64);
                mem.svm
                    .read(address, &mut span)
                    .map_err(|e| Fault::new(svm_fault(e, address, span.len())))?;
                if slots.rows_contiguous() {
                    let at = slots.slot(block, y, (lo - first) as u32) as usize * size;
                    if let Some(slot) = image.get_mut(at..at + span.len()) {
                        slot.copy_from_slice(&span);
                    }
                    continue;
                }
                let x = (lo - first) as u32;
                match size {
                    1 => scatter_row::<1>(&mut image, slots, (block, y, x), &span),
                    2 => scatter_row::<2>(&mut image, slots, (block, y, x), &span),
                    4 => scatter_row::<4>(&mut image, slots, (block, y, x), &span),
                    _ => scatter_row::<8>(&mut image, slots, (block, y, x), &span),
                }
            }
        }
        self.write_raw(data, 0, &image, true)
    }
}

/// Places the elements of `N` bytes read from one surface row, the first of them element `x`
/// of row `y` of block `block`, where the register layout puts them.
fn scatter_row<const N: usize>(
    image: &mut [u8],
    slots: Block2dSlots,
    (block, y, x): (u32, u32, u32),
    span: &[u8],
) {
    for (x, bytes) in (x..).zip(span.chunks_exact(N)) {
        let at = slots.slot(block, y, x) as usize * N;
        if let (Some(slot), Ok(value)) = (image.get_mut(at..at + N), <[u8; N]>::try_from(bytes)) {
            slot.copy_from_slice(&value);
        }
    }
}
