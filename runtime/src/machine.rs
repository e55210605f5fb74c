//! The state of one thread (one SIMD-N instance): its register file with a definedness flag per
//! byte, its predicates, execution mask and goto bookkeeping, its call frames (`frames`), and
//! operand access.

pub(crate) mod frames;
pub(crate) mod lane_pointers;

use visa_isa::ast::{ElemType, PredControl, SrcMod};

use crate::convert::{Num, decode, encode};
use crate::error::{Fault, TrapKind};
use crate::ops::{Dst, DstKind, ExecCtl, PredCtl, Raw, Src, SrcKind};
use crate::program::Program;

/// Maximum channels of an instruction.
pub(crate) const MAX_LANES: usize = 32;

pub(crate) struct Thread<'p> {
    pub program: &'p Program,
    pub grf: Vec<u8>,
    /// Per byte of `grf`: whether it holds a defined value.
    pub defined: Vec<bool>,
    pub preds: Vec<u32>,
    /// Per predicate: bits that were written.
    pub preds_defined: Vec<u32>,
    /// Execution mask.
    pub em: u32,
    /// Per join point of the program (`Program::joins`): the channels a divergent goto parked
    /// there until execution reaches it. Its length never changes (compiled code reaches it
    /// through `JitCtx::waiting`).
    pub waiting: Vec<u32>,
    pub pc: usize,
    /// `%cr0` when the program never names it.
    pub initial_cr0: u32,
    /// Reused buffer for instructions that read every source before writing.
    pub scratch: Vec<Num>,
    /// Instructions executed so far (`%tsc`), kept across barrier phases.
    pub executed: u64,
    /// Active subroutine calls, innermost last.
    pub frames: Vec<frames::CallFrame>,
    /// The call mask of the innermost subroutine (all ones in the kernel body).
    pub call_mask: u32,
    /// Set by `call` so that arriving at the subroutine's first instruction is allowed.
    pub entered_by_call: bool,
    /// Named barriers this thread signalled as a consumer and has not waited on yet (bit = id).
    pub nbarrier_consumer: u32,
    /// Per named barrier, the phase generation this thread joined as a consumer.
    pub nbarrier_joined: [u32; 32],
    /// Set when the thread stopped at an `nbarrier` wait whose producers have not all arrived.
    pub named_wait: bool,
    /// The group-barrier phase this thread signalled (`sbarrier.signal`, `barrier`) and has
    /// not waited for yet.
    pub sbarrier_signal: Option<u32>,
    /// Set when the thread has ended (it no longer takes part in barriers).
    pub ended: bool,
    /// Per state slot (`Layout::states`): the binding-table number it refers to, if set.
    pub states: Vec<StateSlot>,
    /// Whether register bytes carry definedness (the interpreter). Threads on compiled code
    /// start with every byte defined and never mark one undefined.
    pub tracks_defined: bool,
}

/// One element of a state variable: the binding-table number it refers to, if set. A plain
/// `u64` (0 unset, else the number with bit 32 set) that compiled code reads and writes
/// (`jit::lower_mem`).
#[repr(transparent)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct StateSlot(pub u64);

impl StateSlot {
    /// The bit that marks a slot set.
    pub const SET: u64 = 1 << 32;

    pub fn new(number: Option<u32>) -> StateSlot {
        StateSlot(number.map_or(0, |n| StateSlot::SET | u64::from(n)))
    }

    pub fn number(self) -> Option<u32> {
        (self.0 & StateSlot::SET != 0).then_some(self.0 as u32)
    }
}

/// The state slots of a starting thread: element 0 of each state variable at its initial
/// number, the other elements unset.
fn initial_states(layout: &crate::layout::Layout) -> Vec<StateSlot> {
    let mut states = vec![StateSlot::default(); layout.state_slots as usize];
    for var in &layout.states {
        if let Some(slot) = states.get_mut(var.first as usize) {
            *slot = StateSlot::new(var.initial);
        }
    }
    states
}

/// `dst.clone_from(src)` for a short vector, without a call when both are empty.
#[inline]
fn copy_from<T: Copy>(dst: &mut Vec<T>, src: &[T]) {
    if dst.len() != src.len() {
        dst.clear();
        dst.extend_from_slice(src);
    } else if !src.is_empty() {
        dst.copy_from_slice(src);
    }
}

impl<'p> Thread<'p> {
    /// A thread at its start; `tracks_defined` for the interpreter (see the field).
    pub(crate) fn new(program: &'p Program, em: u32, tracks_defined: bool) -> Self {
        let layout = &program.layout;
        let size = layout.file_size as usize;
        let mut defined = vec![!tracks_defined; size];
        for &index in &layout.initialized {
            if let Some(var) = layout.vars.get(index) {
                let start = var.offset as usize;
                let end = (start + var.size as usize).min(size);
                defined[start..end].fill(true);
            }
        }
        Self {
            program,
            grf: vec![0; size],
            defined,
            preds: vec![0; layout.predicates.len()],
            preds_defined: vec![if tracks_defined { 0 } else { u32::MAX }; layout.predicates.len()],
            em,
            waiting: vec![0; program.joins.len()],
            pc: 0,
            initial_cr0: 0,
            scratch: Vec::new(),
            executed: 0,
            frames: Vec::new(),
            call_mask: u32::MAX,
            entered_by_call: false,
            nbarrier_consumer: 0,
            nbarrier_joined: [0; 32],
            named_wait: false,
            sbarrier_signal: None,
            ended: false,
            states: initial_states(layout),
            tracks_defined,
        }
    }

    /// A thread in the state this one started in: same register file, definedness and
    /// predicates, nothing executed. Used to start every thread of a launch from one template.
    pub(crate) fn fresh_copy(&self) -> Self {
        let mut copy = Self::new(self.program, self.em, self.tracks_defined);
        copy.reset_to(self);
        copy
    }

    /// Puts this thread back in the state of `template` (as [`Thread::fresh_copy`] would make
    /// it), keeping its buffers.
    pub(crate) fn reset_to(&mut self, template: &Self) {
        self.grf.clone_from(&template.grf);
        // A thread that does not track definedness has every byte defined all along (nothing
        // marks a byte undefined then): its flags need no copy.
        if !self.all_defined_like(template) {
            self.defined.clone_from(&template.defined);
        }
        self.reset_state_to(template);
    }

    /// [`Thread::reset_to`] with only the register-file bytes `restored` copied from
    /// `template`: the caller knows the thread writes every other byte before reading it
    /// (`launch::fresh`). Both must be threads that do not track definedness (otherwise the
    /// whole state is copied).
    pub(crate) fn restart(&mut self, template: &Self, restored: &[std::ops::Range<usize>]) {
        if !self.all_defined_like(template) || self.grf.len() != template.grf.len() {
            self.reset_to(template);
            return;
        }
        for range in restored {
            if let (Some(dst), Some(src)) = (
                self.grf.get_mut(range.clone()),
                template.grf.get(range.clone()),
            ) {
                dst.copy_from_slice(src);
            }
        }
        self.reset_state_to(template);
    }

    /// Whether neither thread tracks definedness and their flags (all set) have one length.
    fn all_defined_like(&self, template: &Self) -> bool {
        !self.tracks_defined
            && !template.tracks_defined
            && self.defined.len() == template.defined.len()
    }

    /// Everything of [`Thread::reset_to`] but the register file and its flags.
    fn reset_state_to(&mut self, template: &Self) {
        copy_from(&mut self.preds, &template.preds);
        copy_from(&mut self.preds_defined, &template.preds_defined);
        self.em = template.em;
        self.waiting.clear();
        self.waiting.resize(self.program.joins.len(), 0);
        self.pc = 0;
        self.initial_cr0 = template.initial_cr0;
        self.executed = 0;
        self.frames.clear();
        self.call_mask = u32::MAX;
        self.entered_by_call = false;
        self.nbarrier_consumer = 0;
        self.nbarrier_joined = [0; 32];
        self.named_wait = false;
        self.sbarrier_signal = None;
        self.ended = false;
        copy_from(&mut self.states, &template.states);
        self.tracks_defined = template.tracks_defined;
    }

    fn uninitialized(&self, byte: usize, lane: u32) -> Fault {
        let var = self
            .program
            .layout
            .var_at(byte as u32)
            .unwrap_or("?")
            .to_string();
        Fault::at_lane(TrapKind::Uninitialized { var }, lane)
    }

    /// Reads `size` bytes at `byte` as a little-endian integer, checking they are defined.
    pub(crate) fn load(&self, byte: usize, size: usize, lane: u32) -> Result<u64, Fault> {
        let end = byte + size;
        let (Some(bytes), Some(defined)) = (self.grf.get(byte..end), self.defined.get(byte..end))
        else {
            return Err(Fault::at_lane(
                TrapKind::IndirectOutOfBounds {
                    address: byte as i64,
                    len: size as u32,
                },
                lane,
            ));
        };
        if !defined.iter().all(|d| *d) {
            let bad = defined.iter().position(|d| !d).unwrap_or(0);
            return Err(self.uninitialized(byte + bad, lane));
        }
        Ok(match *bytes {
            [a] => u64::from(a),
            [a, b] => u64::from(u16::from_le_bytes([a, b])),
            [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
            [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => {
                let mut word = [0u8; 8];
                let n = bytes.len().min(8);
                word[..n].copy_from_slice(&bytes[..n]);
                u64::from_le_bytes(word)
            }
        })
    }

    pub(crate) fn store(
        &mut self,
        byte: usize,
        size: usize,
        bits: u64,
        lane: u32,
    ) -> Result<(), Fault> {
        let end = byte + size;
        match (self.grf.get_mut(byte..end), self.defined.get_mut(byte..end)) {
            (Some(bytes), Some(defined)) => {
                let le = bits.to_le_bytes();
                match bytes {
                    [a] => *a = le[0],
                    [a, b] => [*a, *b] = [le[0], le[1]],
                    [a, b, c, d] => [*a, *b, *c, *d] = [le[0], le[1], le[2], le[3]],
                    _ => bytes.copy_from_slice(&le[..size.min(8)]),
                }
                defined.fill(true);
                Ok(())
            }
            _ => Err(Fault::at_lane(
                TrapKind::IndirectOutOfBounds {
                    address: byte as i64,
                    len: size as u32,
                },
                lane,
            )),
        }
    }

    /// Raw bytes `[base + from, base + from + out.len())` of a raw operand.
    pub(crate) fn read_raw(
        &self,
        raw: &Raw,
        from: u32,
        out: &mut [u8],
        lane: Option<u32>,
    ) -> Result<(), Fault> {
        if raw.null {
            out.fill(0);
            return Ok(());
        }
        let start = (raw.base + from) as usize;
        let end = start + out.len();
        let fault = |kind| Fault { lane, kind };
        if end > raw.end as usize {
            return Err(fault(TrapKind::IndirectOutOfBounds {
                address: start as i64,
                len: out.len() as u32,
            }));
        }
        // (A thread that does not track definedness has every byte defined; where it does, a
        // fold without early exit, which the compiler vectorises, checks the bytes first.)
        if self.tracks_defined
            && let Some(flags) = self.defined.get(start..end)
            && !flags.iter().fold(true, |all, &d| all & d)
            && let Some(bad) = flags.iter().position(|d| !d)
        {
            return Err(self.uninitialized(start + bad, lane.unwrap_or(0)));
        }
        match self.grf.get(start..end) {
            Some(bytes) => {
                out.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(fault(TrapKind::IndirectOutOfBounds {
                address: start as i64,
                len: out.len() as u32,
            })),
        }
    }

    /// Writes raw bytes; `defined == false` leaves them poisoned (undefined message bytes).
    pub(crate) fn write_raw(
        &mut self,
        raw: &Raw,
        from: u32,
        data: &[u8],
        defined: bool,
    ) -> Result<(), Fault> {
        if raw.null {
            return Ok(());
        }
        let start = (raw.base + from) as usize;
        let end = start + data.len();
        if end > raw.end as usize {
            return Err(Fault::new(TrapKind::IndirectOutOfBounds {
                address: start as i64,
                len: data.len() as u32,
            }));
        }
        match (
            self.grf.get_mut(start..end),
            self.defined.get_mut(start..end),
        ) {
            (Some(bytes), Some(flags)) => {
                bytes.copy_from_slice(data);
                flags.fill(defined || !self.tracks_defined);
                Ok(())
            }
            _ => Err(Fault::new(TrapKind::IndirectOutOfBounds {
                address: start as i64,
                len: data.len() as u32,
            })),
        }
    }

    /// Reads predicate bits `mask` (already shifted to their positions), checking they were
    /// written.
    pub(crate) fn pred_bits(&self, index: u16, mask: u32) -> Result<u32, Fault> {
        let i = usize::from(index);
        let defined = self.preds_defined.get(i).copied().unwrap_or(0);
        if defined & mask != mask {
            let name = self
                .program
                .layout
                .predicates
                .get(i)
                .map_or("?", |(n, _)| n.as_str());
            let lane = (mask & !defined).trailing_zeros();
            return Err(Fault::at_lane(
                TrapKind::Uninitialized {
                    var: name.to_string(),
                },
                lane,
            ));
        }
        Ok(self.preds.get(i).copied().unwrap_or(0) & mask)
    }

    /// Sets predicate bits selected by `mask` to `bits`.
    pub(crate) fn set_pred_bits(&mut self, index: u16, mask: u32, bits: u32) {
        let i = usize::from(index);
        if let (Some(p), Some(d)) = (self.preds.get_mut(i), self.preds_defined.get_mut(i)) {
            *p = (*p & !mask) | (bits & mask);
            *d |= mask;
        }
    }

    /// The channel enables of an instruction (5_operands.md § Predication), bit `i` for
    /// channel `i`.
    pub(crate) fn channel_enables(
        &self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
    ) -> Result<u32, Fault> {
        let lanes = exec.lanes();
        let mut enables = if exec.no_mask {
            lanes
        } else {
            (self.em >> exec.offset) & lanes
        };
        if let Some(p) = pred {
            enables &= self.pred_mask_checked(exec, p, enables)?;
        }
        Ok(enables)
    }

    /// PMask of the predication pseudo-code: predicate bits from the mask offset, combined with
    /// any/all, then inverted.
    pub(crate) fn pred_mask(&self, exec: ExecCtl, p: PredCtl) -> Result<u32, Fault> {
        self.pred_mask_checked(exec, p, exec.lanes())
    }

    /// [`Thread::pred_mask`], requiring defined predicate bits only for the channels in
    /// `relevant` (other bits read as they are; predicates start as zero).
    pub(crate) fn pred_mask_checked(
        &self,
        exec: ExecCtl,
        p: PredCtl,
        relevant: u32,
    ) -> Result<u32, Fault> {
        let lanes = exec.lanes();
        self.pred_bits(p.index, (relevant & lanes) << exec.offset)?;
        let raw = self.preds.get(usize::from(p.index)).copied().unwrap_or(0);
        let bits = (raw >> exec.offset) & lanes;
        let combined = match p.control {
            PredControl::None => bits,
            PredControl::Any if bits != 0 => lanes,
            PredControl::All if bits == lanes => lanes,
            PredControl::Any | PredControl::All => 0,
        };
        Ok(if p.inverse {
            !combined & lanes
        } else {
            combined
        })
    }

    fn address_element(&self, addr: u32, lane: u32) -> Result<i64, Fault> {
        Ok(self.load(addr as usize, 2, lane)? as i64)
    }

    /// Register-file byte of element `lane` of a source, for kinds stored in the file.
    fn src_byte(&self, src: &Src, lane: u32) -> Result<Option<usize>, Fault> {
        let size = src.ty.size();
        let byte = match src.kind {
            SrcKind::Direct { base, vs, w, hs } => {
                // `<VS;1,HS>` (the common `<1;1,0>` and `<0;1,0>`) needs no division.
                let element = if w == 1 {
                    lane * vs
                } else {
                    (lane / w) * vs + (lane % w) * hs
                };
                return Ok(Some((base + element * size) as usize));
            }
            SrcKind::Indirect {
                addr,
                offset,
                vs,
                w,
                hs,
            } => {
                let element = i64::from((lane / w) * vs + (lane % w) * hs);
                self.address_element(addr, lane)? + i64::from(offset) + element * i64::from(size)
            }
            SrcKind::MultiIndirect {
                addr,
                offset,
                w,
                hs,
            } => {
                let a = self.address_element(addr + (lane / w) * 2, lane)?;
                a + i64::from(offset) + i64::from((lane % w) * hs * size)
            }
            _ => return Ok(None),
        };
        self.check_indirect(byte, size, lane).map(Some)
    }

    fn check_indirect(&self, byte: i64, size: u32, lane: u32) -> Result<usize, Fault> {
        if byte < 0 || byte + i64::from(size) > self.grf.len() as i64 {
            return Err(Fault::at_lane(
                TrapKind::IndirectOutOfBounds {
                    address: byte,
                    len: size,
                },
                lane,
            ));
        }
        if byte % i64::from(size) != 0 {
            return Err(Fault::at_lane(
                TrapKind::IndirectMisaligned {
                    address: byte,
                    align: size,
                },
                lane,
            ));
        }
        Ok(byte as usize)
    }

    /// The raw bits of element `lane` of a source (before modifiers).
    pub(crate) fn src_bits(&self, src: &Src, lane: u32) -> Result<u64, Fault> {
        if let Some(byte) = self.src_byte(src, lane)? {
            return self.load(byte, src.ty.size() as usize, lane);
        }
        Ok(match &src.kind {
            SrcKind::Imm(values) => match values.len() {
                1 => values[0],
                _ => values.get(lane as usize).copied().unwrap_or(0),
            },
            SrcKind::Pred(index, mask) => u64::from(self.pred_bits(*index, *mask)?),
            _ => 0,
        })
    }

    /// The value of element `lane` of a source, with its modifier applied in the source type.
    pub(crate) fn src_value(&self, src: &Src, lane: u32) -> Result<Num, Fault> {
        let value = decode(self.src_bits(src, lane)?, src.ty);
        Ok(apply_modifier(value, src.modifier))
    }

    /// Reads the enabled channels of a source into `out`.
    pub(crate) fn read_src(&self, src: &Src, enables: u32, out: &mut [Num]) -> Result<(), Fault> {
        for lane in lane_numbers(enables) {
            let value = self.src_value(src, lane)?;
            if let Some(slot) = out.get_mut(lane as usize) {
                *slot = value;
            }
        }
        Ok(())
    }

    /// Register-file byte of element `lane` of a destination; `None` for `%null`.
    fn dst_byte(&self, dst: &Dst, lane: u32) -> Result<Option<usize>, Fault> {
        let size = dst.ty.size();
        match dst.kind {
            DstKind::Null => Ok(None),
            DstKind::Direct { base, hs } => Ok(Some((base + lane * hs * size) as usize)),
            DstKind::Indirect { addr, offset, hs } => {
                let byte = self.address_element(addr, lane)?
                    + i64::from(offset)
                    + i64::from(lane * hs * size);
                self.check_indirect(byte, size, lane).map(Some)
            }
        }
    }

    /// Writes raw bits to element `lane` of a destination.
    pub(crate) fn write_dst_bits(&mut self, dst: &Dst, lane: u32, bits: u64) -> Result<(), Fault> {
        match self.dst_byte(dst, lane)? {
            Some(byte) => self.store(byte, dst.ty.size() as usize, bits, lane),
            None => Ok(()),
        }
    }

    /// Marks element `lane` of a destination undefined (a result the documents leave open).
    pub(crate) fn undefine_dst(&mut self, dst: &Dst, lane: u32) -> Result<(), Fault> {
        if !self.tracks_defined {
            return Ok(());
        }
        if let Some(byte) = self.dst_byte(dst, lane)?
            && let Some(defined) = self.defined.get_mut(byte..byte + dst.ty.size() as usize)
        {
            defined.fill(false);
        }
        Ok(())
    }

    /// Converts and writes a value to element `lane` of a destination.
    pub(crate) fn write_dst(
        &mut self,
        dst: &Dst,
        lane: u32,
        value: Num,
        saturate: bool,
    ) -> Result<(), Fault> {
        let bits = encode(value, dst.ty, saturate);
        self.write_dst_bits(dst, lane, bits)
    }

    /// The value of a UD/UQ scalar operand (surface offsets, SVM block addresses).
    pub(crate) fn scalar_u64(&self, src: &Src) -> Result<u64, Fault> {
        let value = self.src_value(src, 0)?;
        Ok(match value {
            Num::Int(v) => {
                v as u64
                    & crate::convert::type_mask(if src.ty == ElemType::Bool {
                        ElemType::Ub
                    } else {
                        src.ty
                    })
            }
            Num::Float(v) => v as u64,
        })
    }
}

pub(crate) fn apply_modifier(value: Num, modifier: SrcMod) -> Num {
    match (modifier, value) {
        (SrcMod::None, v) => v,
        (SrcMod::Neg, Num::Int(v)) => Num::Int(-v),
        (SrcMod::Neg, Num::Float(v)) => Num::Float(-v),
        (SrcMod::Abs, Num::Int(v)) => Num::Int(v.abs()),
        (SrcMod::Abs, Num::Float(v)) => Num::Float(v.abs()),
        (SrcMod::NegAbs, Num::Int(v)) => Num::Int(-v.abs()),
        (SrcMod::NegAbs, Num::Float(v)) => Num::Float(-v.abs()),
        (SrcMod::Not, Num::Int(v)) => Num::Int(!v),
        (SrcMod::Not, Num::Float(v)) => Num::Float(v),
    }
}

/// The lanes set in `enables`, lowest first.
pub(crate) fn lane_numbers(enables: u32) -> impl Iterator<Item = u32> {
    let mut bits = enables;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let lane = bits.trailing_zeros();
            bits &= bits - 1;
            lane
        })
    })
}

/// [`lane_numbers`] as indices.
pub(crate) fn lanes_of(enables: u32) -> impl Iterator<Item = usize> {
    lane_numbers(enables).map(|lane| lane as usize)
}
