//! The byte layer the generated records read and write through: little-endian integers, byte
//! strings, zero-terminated strings and counted tables, every read bounds-checked and every
//! error naming the offset and the field (`record.field`).

/// Why an object file does not read or write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {field}: {kind}")]
pub struct ObjectError {
    /// Offset in the file (for a write: in the bytes written so far).
    pub offset: usize,
    /// The field, `record.field` as the object-format document names it.
    pub field: String,
    /// What is wrong.
    pub kind: ObjectErrorKind,
}

/// The kinds of [`ObjectError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectErrorKind {
    /// The file ends inside the field.
    #[error("the file ends ({needed} more byte(s) needed)")]
    UnexpectedEnd {
        /// Bytes missing.
        needed: usize,
    },
    /// A count of elements that cannot fit in the bytes left.
    #[error(
        "{count} element(s) of at least {min_size} byte(s) do not fit in the {left} byte(s) left"
    )]
    CountTooLarge {
        /// The count read.
        count: u64,
        /// The smallest size of one element.
        min_size: usize,
        /// Bytes left in the file.
        left: usize,
    },
    /// A field with a fixed value holds another.
    #[error("expected {expected:#x}, found {found:#x}")]
    BadFixedValue {
        /// The document's value.
        expected: u64,
        /// The file's value.
        found: u64,
    },
    /// A value that does not fit the field.
    #[error("value {0} does not fit the field")]
    OutOfRange(i64),
    /// A string with a zero byte inside (it would end the string).
    #[error("a string holds a zero byte")]
    ZeroInString,
    /// An offset or size that points outside the file, or objects that overlap.
    #[error("{0}")]
    Layout(String),
    /// The content is not what the assembly can say (an index that names nothing, an instruction
    /// that does not decode).
    #[error("{0}")]
    Content(String),
}

impl ObjectError {
    /// An error at `offset` about `field`.
    pub fn new(offset: usize, field: impl Into<String>, kind: ObjectErrorKind) -> Self {
        Self {
            offset,
            field: field.into(),
            kind,
        }
    }
}

/// Reads records from a file's bytes.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    version: (u8, u8),
}

impl<'a> Reader<'a> {
    /// A reader at `pos` of `bytes`, for a file of format `version`.
    pub fn new(bytes: &'a [u8], pos: usize, version: (u8, u8)) -> Self {
        Self {
            bytes,
            pos,
            version,
        }
    }

    /// Offset of the next byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Sets the version (read from the header).
    pub fn set_version(&mut self, version: (u8, u8)) {
        self.version = version;
    }

    /// Whether the file's version is lower than `version`.
    pub fn before(&self, version: (u8, u8)) -> bool {
        self.version < version
    }

    fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], ObjectError> {
        let slice = self
            .pos
            .checked_add(n)
            .and_then(|end| self.bytes.get(self.pos..end))
            .ok_or_else(|| {
                ObjectError::new(
                    self.pos,
                    field,
                    ObjectErrorKind::UnexpectedEnd {
                        needed: n.saturating_sub(self.left()),
                    },
                )
            })?;
        self.pos += n;
        Ok(slice)
    }

    /// An unsigned integer of `size` bytes.
    pub fn uint(&mut self, size: usize, field: &str) -> Result<u32, ObjectError> {
        let bytes = self.take(size.min(4), field)?;
        Ok(bytes
            .iter()
            .rev()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b)))
    }

    /// A signed integer of `size` bytes.
    pub fn int(&mut self, size: usize, field: &str) -> Result<i32, ObjectError> {
        let size = size.clamp(1, 4);
        let raw = self.uint(size, field)?;
        let shift = 32 - 8 * size as u32;
        Ok(((raw << shift) as i32) >> shift)
    }

    /// A field of `size` bytes that must hold `expected`.
    pub fn fixed(&mut self, size: usize, expected: u64, field: &str) -> Result<(), ObjectError> {
        let at = self.pos;
        let found = u64::from(self.uint(size, field)?);
        if found != expected {
            return Err(ObjectError::new(
                at,
                field,
                ObjectErrorKind::BadFixedValue { expected, found },
            ));
        }
        Ok(())
    }

    /// `count` bytes.
    pub fn bytes(&mut self, count: u32, field: &str) -> Result<Vec<u8>, ObjectError> {
        Ok(self.take(count as usize, field)?.to_vec())
    }

    /// Characters up to a zero byte (not included).
    pub fn cstr(&mut self, field: &str) -> Result<Vec<u8>, ObjectError> {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let len = rest.iter().position(|&b| b == 0).ok_or_else(|| {
            ObjectError::new(
                self.pos,
                field,
                ObjectErrorKind::UnexpectedEnd { needed: 1 },
            )
        })?;
        let text = self.take(len, field)?.to_vec();
        self.pos += 1;
        Ok(text)
    }

    /// `count` elements read by `read_one`, each at least `min_size` bytes: the count is checked
    /// against the bytes left before anything is allocated.
    pub fn table<T>(
        &mut self,
        count: u32,
        min_size: usize,
        field: &str,
        mut read_one: impl FnMut(&mut Self) -> Result<T, ObjectError>,
    ) -> Result<Vec<T>, ObjectError> {
        let needed = (count as usize).saturating_mul(min_size.max(1));
        if needed > self.left() {
            return Err(ObjectError::new(
                self.pos,
                field,
                ObjectErrorKind::CountTooLarge {
                    count: u64::from(count),
                    min_size,
                    left: self.left(),
                },
            ));
        }
        let mut items = Vec::with_capacity(count as usize);
        for _ in 0..count {
            items.push(read_one(self)?);
        }
        Ok(items)
    }

    /// The error for a value that does not fit its field's Rust type.
    pub fn out_of_range(&self, field: &str) -> ObjectError {
        ObjectError::new(self.pos, field, ObjectErrorKind::OutOfRange(-1))
    }
}

/// Writes records, remembering where each field starts.
#[derive(Debug, Clone, Default)]
pub struct Writer {
    bytes: Vec<u8>,
    version: (u8, u8),
    marks: Vec<(&'static str, usize)>,
}

impl Writer {
    /// An empty writer for format `version`.
    pub fn new(version: (u8, u8)) -> Self {
        Self {
            bytes: Vec::new(),
            version,
            marks: Vec::new(),
        }
    }

    /// Whether the version written is lower than `version`.
    pub fn before(&self, version: (u8, u8)) -> bool {
        self.version < version
    }

    /// Records that `field` starts here.
    pub fn mark(&mut self, field: &'static str) {
        self.marks.push((field, self.bytes.len()));
    }

    /// Where the last `field` written starts.
    pub fn position_of(&self, field: &str) -> Option<usize> {
        self.marks
            .iter()
            .rev()
            .find(|(name, _)| *name == field)
            .map(|(_, at)| *at)
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// An unsigned integer of `size` bytes; an error when it does not fit.
    pub fn uint(&mut self, size: usize, value: u64, field: &str) -> Result<(), ObjectError> {
        if size < 8 && value >> (8 * size) != 0 {
            return Err(ObjectError::new(
                self.bytes.len(),
                field,
                ObjectErrorKind::OutOfRange(i64::try_from(value).unwrap_or(i64::MAX)),
            ));
        }
        self.bytes
            .extend(value.to_le_bytes().into_iter().take(size));
        Ok(())
    }

    /// A signed integer of `size` bytes; an error when it does not fit.
    pub fn int(&mut self, size: usize, value: i64, field: &str) -> Result<(), ObjectError> {
        let bits = 8 * size as u32;
        let fits = bits >= 64 || (value >= -(1i64 << (bits - 1)) && value < (1i64 << (bits - 1)));
        if !fits {
            return Err(ObjectError::new(
                self.bytes.len(),
                field,
                ObjectErrorKind::OutOfRange(value),
            ));
        }
        self.bytes
            .extend(value.to_le_bytes().into_iter().take(size));
        Ok(())
    }

    /// Bytes as they are.
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Characters and a terminating zero byte.
    pub fn cstr(&mut self, text: &[u8], field: &str) -> Result<(), ObjectError> {
        if text.contains(&0) {
            return Err(ObjectError::new(
                self.bytes.len(),
                field,
                ObjectErrorKind::ZeroInString,
            ));
        }
        self.bytes.extend_from_slice(text);
        self.bytes.push(0);
        Ok(())
    }
}
