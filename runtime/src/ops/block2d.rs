//! The decoded 2D block messages (`lsc_load_block2d`, `lsc_store_block2d` of LSC_UNTYPED.md):
//! the block shape and its register layout, resolved at load (`decode::lsc_block2d`), and the
//! six surface operands, read when executed (`exec::block2d`).

use super::{ExecCtl, PredCtl, Raw, Src};

/// What a 2D block message moves and how its elements sit in the registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Block2dShape {
    /// Bytes of one element: 1, 2, 4 or 8.
    pub elem_bytes: u32,
    /// Blocks side by side (loads only; 1 for stores).
    pub blocks: u32,
    /// Elements of one block row.
    pub width: u32,
    /// Rows of one block.
    pub height: u32,
    /// `DataOrder` t: each block column fills one register row.
    pub transpose: bool,
    /// `VNNI` t: `elems_per_dword` consecutive rows (transposed: columns) share a dword.
    pub vnni: bool,
    /// Bytes of one GRF.
    pub grf_bytes: u32,
}

impl Block2dShape {
    /// Elements one dword holds (0 for 64-bit elements, which have no VNNI form).
    pub fn elems_per_dword(self) -> u32 {
        4 / self.elem_bytes
    }

    /// Elements between the starts of two register rows: the row length (the block width, or
    /// its height when transposed) rounded up to a power of two.
    pub fn row_pitch(self) -> u64 {
        u64::from(if self.transpose {
            self.height
        } else {
            self.width
        })
        .next_power_of_two()
    }

    /// Elements of one block in the registers, before padding to whole registers.
    pub fn block_elems(self) -> u64 {
        self.row_pitch()
            * u64::from(if self.transpose {
                self.width
            } else {
                self.height
            })
    }

    /// Elements between the starts of two blocks: each block starts in a register of its own.
    pub fn block_pitch(self) -> u64 {
        let per_grf = u64::from((self.grf_bytes / self.elem_bytes).max(1));
        self.block_elems().next_multiple_of(per_grf)
    }

    /// Register bytes a load writes (every block, padding included).
    pub fn load_bytes(self) -> u64 {
        u64::from(self.blocks) * self.block_pitch() * u64::from(self.elem_bytes)
    }

    /// Register bytes a store reads (its one block, without the padding of its last register).
    pub fn store_bytes(self) -> u64 {
        self.block_elems() * u64::from(self.elem_bytes)
    }

    /// Where the elements of this shape sit in the registers ([`Block2dSlots::slot`]), worked
    /// out once per message.
    pub fn slots(self) -> Block2dSlots {
        Block2dSlots {
            row_pitch: self.row_pitch() as u32,
            block_pitch: self.block_pitch() as u32,
            // 1, 2 or 4 elements per dword (64-bit elements: one, and no VNNI form).
            per_dword_log2: self.elems_per_dword().max(1).trailing_zeros(),
            transpose: self.transpose,
            vnni: self.vnni,
        }
    }
}

/// A [`Block2dShape`]'s register layout with its pitches computed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block2dSlots {
    row_pitch: u32,
    block_pitch: u32,
    per_dword_log2: u32,
    transpose: bool,
    vnni: bool,
}

impl Block2dSlots {
    /// The register element (counted from the data operand's start) that holds element `x` of
    /// row `y` of block `b`. Only called for shapes whose register bytes the loader checked
    /// against the data operand, so the index fits in `u32`.
    pub fn slot(self, b: u32, y: u32, x: u32) -> u32 {
        let rp = self.row_pitch;
        let (shift, low) = (self.per_dword_log2, (1 << self.per_dword_log2) - 1);
        let e = 1 << shift;
        b * self.block_pitch
            + match (self.transpose, self.vnni) {
                (false, false) => y * rp + x,
                // Each dword holds `e` rows of one column; a register row holds `e` block rows.
                (false, true) => (y >> shift) * e * rp + x * e + (y & low),
                (true, false) => x * rp + y,
                // Each dword holds `e` columns of one row; a register row holds `e` columns.
                (true, true) => (x >> shift) * e * rp + y * e + (x & low),
            }
    }

    /// Whether the elements of a block row sit one after another in the registers.
    pub fn rows_contiguous(self) -> bool {
        !self.transpose && !self.vnni
    }
}

/// `lsc_load_block2d` / `lsc_store_block2d` on a flat (SVM) surface.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block2d {
    pub store: bool,
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    pub shape: Block2dShape,
    /// The surface operands as written: base address, width minus 1 (bytes), height minus 1
    /// (rows), pitch minus 1 (bytes), start column X (elements), start row Y; each a scalar.
    pub surface: [Src; 6],
    /// `DstData` of a load (`null` for a prefetch), `Src1Data` of a store.
    pub data: Raw,
}

/// Bytes of the 2D block address payload: eight dwords (spec/messages/LSC.md, `Payload[243..0]`
/// rounded up to whole dwords).
pub(crate) const PAYLOAD_BYTES: u32 = 32;

/// A 2D block message addressed by an 8-dword payload (spec/messages/LSC.md: base, width,
/// height, pitch, X, Y and the block shape), as `raw_send` and the payload form of
/// `lsc_load_block2d` / `lsc_store_block2d` (`flat[DESC + (x,y)]`) send it: the element size, order and VNNI come from the descriptor, the
/// rest from the payload when the message runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block2dPayload {
    pub store: bool,
    pub exec: ExecCtl,
    pub pred: Option<PredCtl>,
    /// Bytes of one element.
    pub elem_bytes: u32,
    pub transpose: bool,
    pub vnni: bool,
    pub grf_bytes: u32,
    /// The payload register.
    pub payload: Raw,
    /// Added to the payload's X (elements) and Y (rows): the `(x,y)` of `flat[DESC + (x,y)]`,
    /// zero for raw sends.
    pub offset: [i32; 2],
    /// The response (load) or data (store) registers.
    pub data: Raw,
    /// Their bytes: the message's response or data length in registers.
    pub data_bytes: u32,
    /// The decoded message, for errors.
    pub message: String,
}
