//! A bounds-checked little-endian byte reader that reports the offset of what it fails to read.

use super::{DecodeError, DecodeErrorKind};

/// Reads from a byte slice; every read checks the length.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Offset of the next byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Skips `prefix` when the unread bytes start with it; returns whether they did.
    pub fn skip_if(&mut self, prefix: &[u8]) -> bool {
        let starts = self
            .bytes
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(prefix));
        if starts {
            self.pos += prefix.len();
        }
        starts
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let end = self.pos.checked_add(N);
        let chunk = end
            .and_then(|end| self.bytes.get(self.pos..end))
            .and_then(|s| <[u8; N]>::try_from(s).ok())
            .ok_or_else(|| {
                DecodeError::new(self.pos, DecodeErrorKind::UnexpectedEnd { needed: N })
            })?;
        self.pos += N;
        Ok(chunk)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        let [byte] = self.take::<1>()?;
        Ok(byte)
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        self.take().map(u16::from_le_bytes)
    }

    /// A little-endian i16.
    pub fn i16(&mut self) -> Result<i16, DecodeError> {
        self.take().map(i16::from_le_bytes)
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        self.take().map(u32::from_le_bytes)
    }

    /// A little-endian i32.
    pub fn i32(&mut self) -> Result<i32, DecodeError> {
        self.take().map(i32::from_le_bytes)
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        self.take().map(u64::from_le_bytes)
    }

    /// An unsigned little-endian integer of `size` bytes (1, 2, 4 or 8).
    pub fn uint(&mut self, size: usize) -> Result<u64, DecodeError> {
        match size {
            1 => self.u8().map(u64::from),
            2 => self.u16().map(u64::from),
            4 => self.u32().map(u64::from),
            _ => self.u64(),
        }
    }
}
