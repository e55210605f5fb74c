//! NumPy `.npy` arrays (read and written with `npyz`) as raw little-endian bytes with their
//! element type: how buffers go in and out of a compiled kernel's launch.

use std::path::Path;

use npyz::{DType, Order};

/// The element types a buffer may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NpyType {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

/// An array as raw little-endian bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyArray {
    pub ty: NpyType,
    pub bytes: Vec<u8>,
}

impl NpyType {
    const ALL: [(NpyType, &'static str, &'static str, usize); 11] = [
        (NpyType::I8, "i1", "char", 1),
        (NpyType::U8, "u1", "uchar", 1),
        (NpyType::I16, "i2", "short", 2),
        (NpyType::U16, "u2", "ushort", 2),
        (NpyType::I32, "i4", "int", 4),
        (NpyType::U32, "u4", "uint", 4),
        (NpyType::I64, "i8", "long", 8),
        (NpyType::U64, "u8", "ulong", 8),
        (NpyType::F16, "f2", "half", 2),
        (NpyType::F32, "f4", "float", 4),
        (NpyType::F64, "f8", "double", 8),
    ];

    fn entry(self) -> (NpyType, &'static str, &'static str, usize) {
        Self::ALL
            .into_iter()
            .find(|e| e.0 == self)
            .unwrap_or(Self::ALL[1])
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        self.entry().3
    }

    pub fn is_float(self) -> bool {
        matches!(self, NpyType::F16 | NpyType::F32 | NpyType::F64)
    }

    /// The OpenCL scalar type name (`float`, `uint`).
    pub fn opencl_name(self) -> &'static str {
        self.entry().2
    }

    /// By OpenCL scalar type name, also `unsigned int` style names and vector types
    /// (`float4` is `float`).
    pub fn from_opencl(name: &str) -> Option<NpyType> {
        let name = name.trim().trim_end_matches('*').trim();
        let name = name.replace("unsigned ", "u");
        let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let base = match base {
            "bool" => "uchar",
            "size_t" | "uintptr_t" => "ulong",
            "ptrdiff_t" | "intptr_t" => "long",
            other => other,
        };
        Self::ALL.into_iter().find(|e| e.2 == base).map(|e| e.0)
    }
}

/// Reads a `.npy` file's elements (any shape, C order) as raw bytes.
pub fn read(bytes: &[u8]) -> Result<NpyArray, String> {
    let file = npyz::NpyFile::new(bytes).map_err(|e| format!("not a .npy file: {e}"))?;
    if file.order() == Order::Fortran && file.shape().len() > 1 {
        return Err("Fortran-ordered arrays are not supported".into());
    }
    let DType::Plain(type_str) = file.dtype() else {
        return Err(format!(
            "dtype {} is not a plain number type",
            file.dtype().descr()
        ));
    };
    let text = type_str.to_string();
    let (endian, code) = text.split_at(1);
    let ty = NpyType::ALL
        .into_iter()
        .find(|e| e.1 == code)
        .map(|e| e.0)
        .ok_or_else(|| format!("dtype {text} is not an integer or float type"))?;
    if endian == ">" && ty.size() > 1 {
        return Err(format!("dtype {text} is big-endian"));
    }
    let len = usize::try_from(file.len())
        .ok()
        .and_then(|n| n.checked_mul(ty.size()))
        .filter(|n| *n <= bytes.len())
        .ok_or_else(|| format!("the header's {} elements do not fit the file", file.len()))?;
    // The data is the file's last `len` bytes (npyz has checked the header before it).
    Ok(NpyArray {
        ty,
        bytes: bytes[bytes.len() - len..].to_vec(),
    })
}

/// Writes a one-dimensional `.npy` file.
pub fn write(path: &Path, array: &NpyArray) -> std::io::Result<()> {
    fn typed<T: npyz::AutoSerialize, const N: usize>(
        path: &Path,
        bytes: &[u8],
        from: fn([u8; N]) -> T,
    ) -> std::io::Result<()> {
        let values = bytes
            .chunks_exact(N)
            .map(|c| from(<[u8; N]>::try_from(c).unwrap_or([0; N])));
        npyz::to_file_1d(path, values)
    }
    let b = &array.bytes;
    match array.ty {
        NpyType::I8 => typed(path, b, i8::from_le_bytes),
        NpyType::U8 => typed(path, b, u8::from_le_bytes),
        NpyType::I16 => typed(path, b, i16::from_le_bytes),
        NpyType::U16 => typed(path, b, u16::from_le_bytes),
        NpyType::I32 => typed(path, b, i32::from_le_bytes),
        NpyType::U32 => typed(path, b, u32::from_le_bytes),
        NpyType::I64 => typed(path, b, i64::from_le_bytes),
        NpyType::U64 => typed(path, b, u64::from_le_bytes),
        NpyType::F16 => typed(path, b, |x: [u8; 2]| half::f16::from_le_bytes(x)),
        NpyType::F32 => typed(path, b, f32::from_le_bytes),
        NpyType::F64 => typed(path, b, f64::from_le_bytes),
    }
}

/// The distance between two floats of type `ty` in units in the last place (0 for equal
/// values, NaNs equal to NaNs, +0 and -0 one apart); integers compare exactly (0 or `u64::MAX`).
pub fn ulp_distance(ty: NpyType, a: &[u8], b: &[u8]) -> u64 {
    fn ordered(bits: u64, sign: u64) -> i128 {
        if bits & sign != 0 {
            -((bits & !sign) as i128) - 1
        } else {
            bits as i128
        }
    }
    let bits = |x: &[u8]| {
        let mut w = [0u8; 8];
        w[..x.len()].copy_from_slice(x);
        u64::from_le_bytes(w)
    };
    let (x, y) = (bits(a), bits(b));
    if !ty.is_float() {
        return if x == y { 0 } else { u64::MAX };
    }
    let (sign, exp_mask, mant_mask) = match ty {
        NpyType::F16 => (1u64 << 15, 0x7c00u64, 0x3ffu64),
        NpyType::F32 => (1 << 31, 0x7f80_0000, 0x7f_ffff),
        _ => (1 << 63, 0x7ff0_0000_0000_0000, 0xf_ffff_ffff_ffff),
    };
    let nan = |v: u64| v & exp_mask == exp_mask && v & mant_mask != 0;
    match (nan(x), nan(y)) {
        (true, true) => 0,
        (false, false) => ordered(x, sign)
            .abs_diff(ordered(y, sign))
            .min(u64::MAX as u128) as u64,
        _ => u64::MAX,
    }
}
