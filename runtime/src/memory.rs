//! Memory shared by the threads of a launch: byte buffers (surfaces, SLM) and the shared virtual
//! memory (SVM) space.
//!
//! Storage is a vector of `AtomicU32` words, so any number of threads may read and write the same
//! buffer through a shared reference without `unsafe`. Whole aligned dwords are loaded/stored
//! directly; a partial dword write clears and then sets only its own bytes with `fetch_and` /
//! `fetch_or`, so two threads writing different bytes of one word never lose each other's data.
//! All accesses use relaxed ordering: a launch joins every thread before results are read, which
//! orders everything, and vISA leaves racing accesses of one launch undefined anyway.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use visa_isa::ast::ElemType;

/// Locks serialising 64-bit atomic operations, striped by address.
static ATOMIC64_LOCKS: [Mutex<()>; 64] = [const { Mutex::new(()) }; 64];

/// A growable-at-creation, fixed-size byte buffer with interior mutability.
#[derive(Debug, Default)]
pub struct Buffer {
    words: Vec<AtomicU32>,
    len: usize,
}

impl Clone for Buffer {
    fn clone(&self) -> Self {
        Self {
            words: self
                .words
                .iter()
                .map(|w| AtomicU32::new(w.load(Ordering::Relaxed)))
                .collect(),
            len: self.len,
        }
    }
}

impl Buffer {
    /// A zero-filled buffer of `len` bytes.
    pub fn zeroed(len: usize) -> Self {
        Self {
            words: (0..len.div_ceil(4)).map(|_| AtomicU32::new(0)).collect(),
            len,
        }
    }

    /// [`Buffer::zeroed`], or `None` when the system refuses the allocation.
    pub fn try_zeroed(len: usize) -> Option<Self> {
        let mut words = Vec::new();
        words.try_reserve_exact(len.div_ceil(4)).ok()?;
        words.extend((0..len.div_ceil(4)).map(|_| AtomicU32::new(0)));
        Some(Self { words, len })
    }

    /// A buffer holding a copy of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Self::filled(Vec::with_capacity(bytes.len().div_ceil(4)), bytes)
    }

    /// [`Buffer::from_bytes`], or `None` when the system refuses the allocation.
    pub fn try_from_bytes(bytes: &[u8]) -> Option<Self> {
        let mut words = Vec::new();
        words.try_reserve_exact(bytes.len().div_ceil(4)).ok()?;
        Some(Self::filled(words, bytes))
    }

    /// A buffer of `bytes`, its words appended to `words` (which has room for them) as
    /// little-endian words, a partial last word padded with zeros.
    fn filled(mut words: Vec<AtomicU32>, bytes: &[u8]) -> Self {
        let whole = bytes.chunks_exact(4);
        let tail = whole.remainder();
        words.extend(whole.map(|b| AtomicU32::new(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))));
        if !tail.is_empty() {
            let mut last = [0u8; 4];
            last[..tail.len()].copy_from_slice(tail);
            words.push(AtomicU32::new(u32::from_le_bytes(last)));
        }
        Self {
            words,
            len: bytes.len(),
        }
    }

    /// The contents, taking the buffer (no atomic loads, so the copy is a plain one); `None`
    /// when the system refuses the allocation.
    pub fn try_into_bytes(self) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        out.try_reserve_exact(4 * self.words.len()).ok()?;
        out.resize(4 * self.words.len(), 0);
        for (bytes, word) in out.chunks_exact_mut(4).zip(self.words) {
            bytes.copy_from_slice(&word.into_inner().to_le_bytes());
        }
        out.truncate(self.len);
        Some(out)
    }

    /// A buffer holding the little-endian bytes of `values`.
    pub fn from_slice<T: Element>(values: &[T]) -> Self {
        Self::from_bytes(&to_bytes(values))
    }

    /// The host address of the buffer's first byte, for compiled code that checks its
    /// accesses against [`Buffer::len`] itself. The words are little-endian `u32`s in place,
    /// and they neither move nor are freed while the buffer is borrowed.
    pub(crate) fn host_address(&self) -> usize {
        self.words.as_ptr() as usize
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `[offset, offset + len)` lies inside the buffer.
    pub fn contains(&self, offset: u64, len: usize) -> bool {
        offset
            .checked_add(len as u64)
            .is_some_and(|end| end <= self.len as u64)
    }

    /// Copies `out.len()` bytes starting at `offset`; bytes outside the buffer read as zero.
    /// Returns whether the whole range was inside the buffer.
    pub fn read(&self, offset: u64, out: &mut [u8]) -> bool {
        let inside = self.contains(offset, out.len());
        if inside && offset.is_multiple_of(4) {
            // Whole words (the common aligned case) without the byte loop.
            let first = (offset / 4) as usize;
            if let Some(words) = self.words.get(first..first + out.len().div_ceil(4)) {
                // (Whole words first, in fixed-size copies; then a partial last word.)
                let (body, tail) = out.split_at_mut(out.len() / 4 * 4);
                for (chunk, word) in body.chunks_exact_mut(4).zip(words) {
                    chunk.copy_from_slice(&word.load(Ordering::Relaxed).to_le_bytes());
                }
                if let Some(word) = words.get(body.len() / 4) {
                    let bytes = word.load(Ordering::Relaxed).to_le_bytes();
                    tail.copy_from_slice(&bytes[..tail.len()]);
                }
                return true;
            }
        }
        let mut i = 0;
        while i < out.len() {
            let addr = offset.wrapping_add(i as u64);
            if addr >= self.len as u64 {
                out[i] = 0;
                i += 1;
                continue;
            }
            let word_index = (addr / 4) as usize;
            let word = self
                .words
                .get(word_index)
                .map_or(0, |w| w.load(Ordering::Relaxed))
                .to_le_bytes();
            let mut byte = (addr % 4) as usize;
            while byte < 4 && i < out.len() {
                let a = offset.wrapping_add(i as u64);
                out[i] = if a < self.len as u64 { word[byte] } else { 0 };
                byte += 1;
                i += 1;
            }
        }
        inside
    }

    /// [`Buffer::read`] of one little-endian dword.
    pub(crate) fn read_dword(&self, offset: u64) -> u32 {
        self.read_element(offset, 4)
    }

    /// [`Buffer::read`] of a little-endian element of `n` (1, 2 or 4) bytes, zero-extended:
    /// one word load when the element lies inside one word of the buffer.
    pub(crate) fn read_element(&self, offset: u64, n: usize) -> u32 {
        let shift = (offset % 4) as usize;
        if n <= 4 - shift
            && self.contains(offset, n)
            && let Some(word) = self.words.get((offset / 4) as usize)
        {
            let bits = word.load(Ordering::Relaxed) >> (8 * shift);
            return if n == 4 {
                bits
            } else {
                bits & ((1 << (8 * n)) - 1)
            };
        }
        let mut bytes = [0u8; 4];
        self.read(offset, &mut bytes[..n.min(4)]);
        u32::from_le_bytes(bytes)
    }

    /// [`Buffer::write`] of one little-endian dword.
    pub(crate) fn write_dword(&self, offset: u64, value: u32) {
        if offset.is_multiple_of(4)
            && self.contains(offset, 4)
            && let Some(word) = self.words.get((offset / 4) as usize)
        {
            word.store(value, Ordering::Relaxed);
            return;
        }
        self.write(offset, &value.to_le_bytes());
    }

    /// Writes `data` at `offset`; bytes that fall outside the buffer are dropped. Returns whether
    /// the whole range was inside the buffer.
    pub fn write(&self, offset: u64, data: &[u8]) -> bool {
        let inside = self.contains(offset, data.len());
        // (At least one whole word, so the tail call below takes the byte path.)
        if inside && offset.is_multiple_of(4) && data.len() >= 4 {
            // Whole words are stored directly; a partial last word takes the byte path.
            let first = (offset / 4) as usize;
            let whole = data.len() / 4;
            if let Some(words) = self.words.get(first..first + whole) {
                for (chunk, word) in data.chunks_exact(4).zip(words) {
                    let value = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                    word.store(value, Ordering::Relaxed);
                }
                let done = whole * 4;
                if done < data.len() {
                    self.write(offset + done as u64, data.get(done..).unwrap_or(&[]));
                }
                return true;
            }
        }
        let mut i = 0;
        while i < data.len() {
            let addr = offset.wrapping_add(i as u64);
            if addr >= self.len as u64 {
                i += 1;
                continue;
            }
            let word_index = (addr / 4) as usize;
            let first = (addr % 4) as usize;
            let mut bytes = [0u8; 4];
            let mut mask = [0u8; 4];
            let mut byte = first;
            while byte < 4 && i < data.len() && offset.wrapping_add(i as u64) < self.len as u64 {
                bytes[byte] = data[i];
                mask[byte] = 0xff;
                byte += 1;
                i += 1;
            }
            if let Some(word) = self.words.get(word_index) {
                let mask = u32::from_le_bytes(mask);
                let value = u32::from_le_bytes(bytes);
                if mask == u32::MAX {
                    word.store(value, Ordering::Relaxed);
                } else {
                    word.fetch_and(!mask, Ordering::Relaxed);
                    word.fetch_or(value, Ordering::Relaxed);
                }
            }
        }
        inside
    }

    /// Atomically replaces the `width`-byte value (2, 4 or 8, little-endian) at `offset` by
    /// `update(old)` and returns `old`; `None` when the range is not inside the buffer. The
    /// caller checks alignment (`offset` a multiple of `width`).
    ///
    /// 2- and 4-byte values live in one word and are updated with a compare-exchange loop on
    /// that word (other bytes of the word are preserved). An 8-byte value spans two words: it is
    /// updated under one of [`ATOMIC64_LOCKS`], chosen by the address of its first word, so
    /// 64-bit atomics on one location are serialised; mixing them with plain or 32-bit accesses
    /// to the same bytes is a race, as on hardware.
    pub(crate) fn atomic_update(
        &self,
        offset: u64,
        width: u32,
        mut update: impl FnMut(u64) -> u64,
    ) -> Option<u64> {
        if !self.contains(offset, width as usize) {
            return None;
        }
        let index = usize::try_from(offset / 4).ok()?;
        let word = self.words.get(index)?;
        match width {
            8 => {
                let high = self.words.get(index + 1)?;
                let stripe = (std::ptr::from_ref(word) as usize / 8) % ATOMIC64_LOCKS.len();
                let _guard = ATOMIC64_LOCKS
                    .get(stripe)?
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                let old = u64::from(word.load(Ordering::SeqCst))
                    | u64::from(high.load(Ordering::SeqCst)) << 32;
                let new = update(old);
                word.store(new as u32, Ordering::SeqCst);
                high.store((new >> 32) as u32, Ordering::SeqCst);
                Some(old)
            }
            _ => {
                let shift = (offset % 4) as u32 * 8;
                let mask = if width == 2 { 0xffffu32 } else { u32::MAX };
                let mut old = 0u64;
                let _ = word.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |current| {
                    old = u64::from((current >> shift) & mask);
                    let new = (update(old) as u32) & mask;
                    Some((current & !(mask << shift)) | (new << shift))
                });
                Some(old)
            }
        }
    }

    /// The whole contents.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0; self.len];
        self.read(0, &mut out);
        out
    }

    /// The contents as elements of `T` (a trailing partial element is ignored).
    pub fn to_vec<T: Element>(&self) -> Vec<T> {
        from_bytes(&self.to_bytes())
    }
}

/// A Rust scalar type that maps to a vISA element type.
pub trait Element: Copy + Send + Sync + 'static {
    const TYPE: ElemType;
    fn to_bits(self) -> u64;
    fn from_bits(bits: u64) -> Self;
}

macro_rules! int_element {
    ($t:ty, $u:ty, $e:ident) => {
        impl Element for $t {
            const TYPE: ElemType = ElemType::$e;
            fn to_bits(self) -> u64 {
                self as $u as u64
            }
            fn from_bits(bits: u64) -> Self {
                bits as $u as $t
            }
        }
    };
}
int_element!(u8, u8, Ub);
int_element!(i8, u8, B);
int_element!(u16, u16, Uw);
int_element!(i16, u16, W);
int_element!(u32, u32, Ud);
int_element!(i32, u32, D);
int_element!(u64, u64, Uq);
int_element!(i64, u64, Q);

impl Element for f32 {
    const TYPE: ElemType = ElemType::F;
    fn to_bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
}

impl Element for f64 {
    const TYPE: ElemType = ElemType::Df;
    fn to_bits(self) -> u64 {
        self.to_bits()
    }
    fn from_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}

/// Little-endian bytes of `values`.
pub fn to_bytes<T: Element>(values: &[T]) -> Vec<u8> {
    let size = T::TYPE.size() as usize;
    let mut out = Vec::with_capacity(values.len() * size);
    for v in values {
        out.extend_from_slice(&v.to_bits().to_le_bytes()[..size]);
    }
    out
}

/// Elements of `T` decoded from little-endian bytes.
pub fn from_bytes<T: Element>(bytes: &[u8]) -> Vec<T> {
    let size = T::TYPE.size() as usize;
    bytes
        .chunks_exact(size)
        .map(|chunk| {
            let mut word = [0u8; 8];
            word[..size].copy_from_slice(chunk);
            T::from_bits(u64::from_le_bytes(word))
        })
        .collect()
}

/// First address handed out by [`Svm`]; low enough that stateless (T5) 32-bit offsets reach the
/// first 4 GiB of allocations.
const SVM_FIRST_ADDRESS: u64 = 0x1_0000;
/// Unmapped gap left after each allocation, so that running off its end traps.
const SVM_GUARD: u64 = 0x1000;

/// The shared virtual memory space of a launch: a registry of allocations at 64-bit addresses.
#[derive(Debug, Clone)]
pub struct Svm {
    /// Sorted by base address, non-overlapping.
    allocations: Vec<(u64, Buffer)>,
    next: u64,
    /// Largest single allocation, in bytes.
    max_allocation: usize,
}

impl Default for Svm {
    fn default() -> Self {
        Self::new()
    }
}

/// An allocation that [`Svm::try_alloc`] refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SvmAllocError {
    /// More bytes than [`Svm::with_max_allocation`] allows.
    #[error("SVM allocation of {len} bytes exceeds the limit of {max} bytes")]
    TooLarge { len: usize, max: usize },
    /// The 64-bit address space is used up.
    #[error("SVM allocation of {len} bytes does not fit in the address space")]
    AddressSpace { len: usize },
    /// The system refused the memory.
    #[error("SVM allocation of {len} bytes: out of memory")]
    OutOfMemory { len: usize },
}

/// Why an SVM access failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SvmFault {
    /// No allocation contains the address.
    #[error("no SVM allocation contains the address")]
    Unmapped,
    /// The access starts inside an allocation but runs past its end.
    #[error("the access runs past the end of its SVM allocation")]
    OutOfBounds,
}

impl Svm {
    /// Default [`Svm::with_max_allocation`]: 1 GiB.
    pub const DEFAULT_MAX_ALLOCATION: usize = 1 << 30;

    pub fn new() -> Self {
        Self {
            allocations: Vec::new(),
            next: SVM_FIRST_ADDRESS,
            max_allocation: Self::DEFAULT_MAX_ALLOCATION,
        }
    }

    /// Sets the largest single allocation [`Svm::try_alloc`] accepts.
    pub fn with_max_allocation(mut self, bytes: usize) -> Self {
        self.max_allocation = bytes;
        self
    }

    /// Allocates `len` zeroed bytes and returns their address (4 KiB aligned).
    ///
    /// # Panics
    ///
    /// When [`Svm::try_alloc`] refuses the allocation.
    pub fn alloc(&mut self, len: usize) -> u64 {
        self.try_alloc(len).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Allocates `len` zeroed bytes and returns their address (4 KiB aligned), or refuses an
    /// allocation over the limit.
    pub fn try_alloc(&mut self, len: usize) -> Result<u64, SvmAllocError> {
        self.insert(len, || Buffer::try_zeroed(len))
    }

    /// [`Svm::try_alloc`] of a buffer holding a copy of `bytes`.
    pub fn try_alloc_bytes(&mut self, bytes: &[u8]) -> Result<u64, SvmAllocError> {
        self.insert(bytes.len(), || Buffer::try_from_bytes(bytes))
    }

    /// Adds an allocation of `len` bytes, its buffer made by `make` once the size is known to
    /// be allowed (`None`: the system refused the memory); returns its address.
    fn insert(
        &mut self,
        len: usize,
        make: impl FnOnce() -> Option<Buffer>,
    ) -> Result<u64, SvmAllocError> {
        if len > self.max_allocation {
            return Err(SvmAllocError::TooLarge {
                len,
                max: self.max_allocation,
            });
        }
        let base = self.next.max(SVM_FIRST_ADDRESS);
        let next = base
            .checked_add(len as u64)
            .and_then(|end| end.checked_add(SVM_GUARD))
            .and_then(|end| end.div_ceil(SVM_GUARD).checked_mul(SVM_GUARD))
            .ok_or(SvmAllocError::AddressSpace { len })?;
        let buffer = make().ok_or(SvmAllocError::OutOfMemory { len })?;
        self.next = next;
        self.allocations.push((base, buffer));
        Ok(base)
    }

    /// Removes the allocation at `base` and returns its buffer.
    pub fn take(&mut self, base: u64) -> Option<Buffer> {
        let index = self.allocations.iter().position(|(b, _)| *b == base)?;
        Some(self.allocations.remove(index).1)
    }

    /// Allocates a buffer initialised with `values`.
    pub fn alloc_from<T: Element>(&mut self, values: &[T]) -> u64 {
        self.try_alloc_bytes(&to_bytes(values))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The allocation holding `address`: its base and buffer.
    pub(crate) fn find(&self, address: u64) -> Option<(u64, &Buffer)> {
        let index = self
            .allocations
            .partition_point(|(base, _)| *base <= address)
            .checked_sub(1)?;
        let (base, buffer) = self.allocations.get(index)?;
        (address - base < buffer.len().max(1) as u64).then_some((*base, buffer))
    }

    fn locate(&self, address: u64, len: usize) -> Result<(u64, &Buffer), SvmFault> {
        let (base, buffer) = self.find(address).ok_or(SvmFault::Unmapped)?;
        if buffer.contains(address - base, len) {
            Ok((address - base, buffer))
        } else {
            Err(SvmFault::OutOfBounds)
        }
    }

    /// Reads `out.len()` bytes at `address`; the whole range must be one allocation.
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), SvmFault> {
        let (offset, buffer) = self.locate(address, out.len())?;
        buffer.read(offset, out);
        Ok(())
    }

    /// Writes `data` at `address`; the whole range must be one allocation.
    pub fn write(&self, address: u64, data: &[u8]) -> Result<(), SvmFault> {
        let (offset, buffer) = self.locate(address, data.len())?;
        buffer.write(offset, data);
        Ok(())
    }

    /// Atomic read-modify-write of the `width`-byte value at `address` (see
    /// [`Buffer::atomic_update`]); returns the old value.
    pub(crate) fn atomic_update(
        &self,
        address: u64,
        width: u32,
        update: impl FnMut(u64) -> u64,
    ) -> Result<u64, SvmFault> {
        let (offset, buffer) = self.locate(address, width as usize)?;
        buffer
            .atomic_update(offset, width, update)
            .ok_or(SvmFault::OutOfBounds)
    }

    /// Reads `count` elements of `T` at `address`.
    pub fn read_vec<T: Element>(&self, address: u64, count: usize) -> Result<Vec<T>, SvmFault> {
        let mut bytes = vec![0; count * T::TYPE.size() as usize];
        self.read(address, &mut bytes)?;
        Ok(from_bytes(&bytes))
    }

    /// Writes `values` at `address`.
    pub fn write_slice<T: Element>(&self, address: u64, values: &[T]) -> Result<(), SvmFault> {
        self.write(address, &to_bytes(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_word_writes_keep_neighbouring_bytes() {
        let buffer = Buffer::from_bytes(&[1, 2, 3, 4, 5, 6, 7]);
        assert!(buffer.write(2, &[0xaa, 0xbb, 0xcc]));
        assert_eq!(buffer.to_bytes(), vec![1, 2, 0xaa, 0xbb, 0xcc, 6, 7]);
        assert!(!buffer.write(6, &[9, 9]));
        assert_eq!(buffer.to_bytes(), vec![1, 2, 0xaa, 0xbb, 0xcc, 6, 9]);
        let mut out = [0xffu8; 4];
        assert!(!buffer.read(5, &mut out));
        assert_eq!(out, [6, 9, 0, 0]);
    }

    #[test]
    fn aligned_reads_end_in_a_partial_word() {
        let buffer = Buffer::from_bytes(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        for len in 0..=10 {
            let mut out = vec![0xffu8; len];
            assert!(buffer.read(0, &mut out));
            assert_eq!(out, (1..=len as u8).collect::<Vec<_>>(), "{len} bytes");
        }
        let mut out = [0xffu8; 5];
        assert!(buffer.read(4, &mut out));
        assert_eq!(out, [5, 6, 7, 8, 9]);
    }

    #[test]
    fn svm_allocations_are_separated_by_unmapped_gaps() {
        let mut svm = Svm::new();
        let a = svm.alloc_from(&[1u32, 2, 3]);
        let b = svm.alloc_from(&[7u16]);
        assert!(b >= a + 12 + SVM_GUARD);
        assert_eq!(svm.read_vec::<u32>(a + 4, 2), Ok(vec![2, 3]));
        assert_eq!(svm.read_vec::<u32>(a + 8, 2), Err(SvmFault::OutOfBounds));
        assert_eq!(svm.read_vec::<u32>(a + 12, 1), Err(SvmFault::Unmapped));
        assert_eq!(svm.read_vec::<u32>(0, 1), Err(SvmFault::Unmapped));
        assert_eq!(svm.read_vec::<u16>(b, 1), Ok(vec![7]));
    }

    /// Buffers built from bytes of every length up to three words hold exactly those bytes
    /// (a partial last word padded with zeros that are not part of the buffer), and give them
    /// back whole when taken.
    #[test]
    fn buffers_from_bytes_round_trip() {
        for len in 0..=12usize {
            let bytes: Vec<u8> = (0..len).map(|i| 0x10 + i as u8).collect();
            let buffer = Buffer::from_bytes(&bytes);
            assert_eq!(buffer.len(), len);
            assert_eq!(buffer.to_bytes(), bytes, "{len} bytes");
            let mut past = [0xffu8; 4];
            assert!(!buffer.read(len as u64, &mut past));
            assert_eq!(past, [0; 4], "past the end of {len} bytes");
            let taken = Buffer::try_from_bytes(&bytes).and_then(Buffer::try_into_bytes);
            assert_eq!(taken, Some(bytes), "{len} bytes taken");
        }
    }

    #[test]
    fn svm_allocations_from_bytes_can_be_taken_back() {
        let mut svm = Svm::new().with_max_allocation(16);
        let a = svm.try_alloc_bytes(&[1, 2, 3, 4, 5]).unwrap();
        let b = svm.try_alloc_bytes(&[9; 16]).unwrap();
        assert!(matches!(
            svm.try_alloc_bytes(&[0; 17]),
            Err(SvmAllocError::TooLarge { len: 17, max: 16 })
        ));
        assert_eq!(svm.read_vec::<u8>(a + 1, 4), Ok(vec![2, 3, 4, 5]));
        let taken = svm.take(a).and_then(Buffer::try_into_bytes);
        assert_eq!(taken, Some(vec![1, 2, 3, 4, 5]));
        assert_eq!(svm.read_vec::<u8>(a, 1), Err(SvmFault::Unmapped));
        assert!(svm.take(a).is_none());
        assert_eq!(svm.read_vec::<u8>(b + 15, 1), Ok(vec![9]));
    }
}
