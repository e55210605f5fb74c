//! vISA object files (`.isa`): the container the Intel compiler writes (`GenX_IR -binary`, the
//! `IGC_ShaderDumpEnable` dumps) and reads.
//!
//! The records (header, kernel and function objects, variables, inputs, attributes) are
//! generated from `spec/OBJECT_FORMAT.md` ([`format`]); this module lays them out in a file:
//! the header, then each kernel's object followed by its embedded machine code, then each
//! function's object, with the offsets, sizes, `input_offset` and `entry` fields computed on
//! write and checked on read. [`module`] converts between an object and an assembly
//! [`crate::ast::Module`].
//!
//! Reading never panics: every count is checked against the bytes left before a table is
//! allocated, and every error names the byte offset and the field ([`ObjectError`]).

pub mod module;
pub mod wire;

pub use wire::{ObjectError, ObjectErrorKind};

/// The records of the object format, generated from `spec/OBJECT_FORMAT.md`.
#[allow(
    clippy::useless_conversion,
    clippy::unnecessary_fallible_conversions,
    clippy::cast_lossless
)]
pub mod format {
    use super::wire::{ObjectError, Reader, Writer};
    include!(concat!(env!("OUT_DIR"), "/object_format.rs"));
}

use format::{
    CommonIsaHeader, FunctionData, FunctionInfo, GenBinaryInfo, KernelData, KernelInfo, RelocSym,
};
use wire::{Reader, Writer};

/// The version the compiler writes (IGC 1.0.12504 always writes 4.1) and we write.
pub const CURRENT_VERSION: (u8, u8) = (4, 1);

/// The oldest version read.
pub const OLDEST_VERSION: (u8, u8) = (3, 0);

/// A whole object file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    /// The format version of the file.
    pub version: (u8, u8),
    /// Kernels in header order.
    pub kernels: Vec<KernelObject>,
    /// Functions in header order.
    pub functions: Vec<FunctionObject>,
    /// File-scope variables (the compiler always writes none).
    pub file_variables: Vec<format::FileScopeVarInfo>,
}

/// A kernel: its object and any machine code embedded after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelObject {
    /// The header's name of the kernel.
    pub name: Vec<u8>,
    /// The kernel object.
    pub data: KernelData,
    /// Machine code for GPUs (platform number, bytes), as `GenX_IR -binary` embeds it.
    pub gen_binaries: Vec<(u8, Vec<u8>)>,
    /// Relocation tables of the header entry (the compiler writes none).
    pub relocs: (Vec<RelocSym>, Vec<RelocSym>),
}

/// A function: its header entry's fields and its object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionObject {
    /// `linkage` of the header entry (no longer used; 0).
    pub linkage: u8,
    /// The header's name of the function.
    pub name: Vec<u8>,
    /// The function object.
    pub data: FunctionData,
    /// Relocation tables of the header entry (the compiler writes none).
    pub relocs: (Vec<RelocSym>, Vec<RelocSym>),
}

fn layout_error(offset: usize, field: &str, message: String) -> ObjectError {
    ObjectError::new(offset, field, ObjectErrorKind::Layout(message))
}

/// `bytes[offset..offset + size]`, or an error naming `field`.
fn span<'a>(
    bytes: &'a [u8],
    offset: u32,
    size: u32,
    at: usize,
    field: &str,
) -> Result<&'a [u8], ObjectError> {
    let start = offset as usize;
    start
        .checked_add(size as usize)
        .and_then(|end| bytes.get(start..end))
        .ok_or_else(|| {
            layout_error(
                at,
                field,
                format!(
                    "{size} byte(s) at offset {offset} lie outside the {}-byte file",
                    bytes.len()
                ),
            )
        })
}

impl Object {
    /// Reads an object file.
    pub fn read(bytes: &[u8]) -> Result<Object, ObjectError> {
        let version = match bytes.get(4..6) {
            Some(&[major, minor]) => (major, minor),
            _ => {
                return Err(ObjectError::new(
                    bytes.len(),
                    "common_isa_header.major_version",
                    ObjectErrorKind::UnexpectedEnd {
                        needed: 6usize.saturating_sub(bytes.len()),
                    },
                ));
            }
        };
        let mut r = Reader::new(bytes, 0, version);
        let header = CommonIsaHeader::read(&mut r)?;
        if version < OLDEST_VERSION {
            return Err(layout_error(
                4,
                "common_isa_header.major_version",
                format!(
                    "version {}.{} is older than 3.0, which the format starts at",
                    version.0, version.1
                ),
            ));
        }
        let mut kernels = Vec::new();
        for (i, info) in header.kernels.into_iter().enumerate() {
            let field = format!("kernels[{i}]");
            let object = span(bytes, info.offset, info.size, 0, &format!("{field}.offset"))?;
            let mut r = Reader::new(
                &bytes[..info.offset as usize + object.len()],
                info.offset as usize,
                version,
            );
            let data = KernelData::read(&mut r)?;
            check_end(&r, info.offset, info.size, &format!("{field}.size"))?;
            let input_at = info.offset as usize + position_of_inputs(&data, version)?;
            if info.input_offset as usize != input_at {
                return Err(layout_error(
                    0,
                    &format!("{field}.input_offset"),
                    format!(
                        "{} is not the offset of num_inputs ({input_at})",
                        info.input_offset
                    ),
                ));
            }
            let mut gen_binaries = Vec::new();
            for (j, binary) in info.gen_binaries.iter().enumerate() {
                let code = span(
                    bytes,
                    binary.binary_offset,
                    binary.binary_size,
                    0,
                    &format!("{field}.gen_binaries[{j}]"),
                )?;
                gen_binaries.push((binary.platform, code.to_vec()));
            }
            kernels.push(KernelObject {
                name: info.name,
                data,
                gen_binaries,
                relocs: (info.variable_relocs, info.function_relocs),
            });
        }
        let mut functions = Vec::new();
        for (i, info) in header.functions.into_iter().enumerate() {
            let field = format!("functions[{i}]");
            let object = span(bytes, info.offset, info.size, 0, &format!("{field}.offset"))?;
            let mut r = Reader::new(
                &bytes[..info.offset as usize + object.len()],
                info.offset as usize,
                version,
            );
            let data = FunctionData::read(&mut r)?;
            check_end(&r, info.offset, info.size, &format!("{field}.size"))?;
            functions.push(FunctionObject {
                linkage: info.linkage,
                name: info.name,
                data,
                relocs: (info.variable_relocs, info.function_relocs),
            });
        }
        let object = Object {
            version,
            kernels,
            functions,
            file_variables: header.variables,
        };
        // The derived fields (entry, offsets) must be the ones the layout gives, and the
        // objects lie back to back in the order the header lists them (what a writer does).
        object.check_entries()?;
        let written = object.write()?;
        if written != bytes {
            let at = written
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(written.len().min(bytes.len()));
            return Err(layout_error(
                at,
                "common_isa_header",
                format!(
                    "the objects do not lie back to back as the header lists them (first difference at byte {at}; {} byte(s), {} expected)",
                    bytes.len(),
                    written.len()
                ),
            ));
        }
        Ok(object)
    }

    fn check_entries(&self) -> Result<(), ObjectError> {
        for (i, kernel) in self.kernels.iter().enumerate() {
            let (_, entry) = kernel_bytes(&kernel.data, self.version)?;
            if kernel.data.entry != entry {
                return Err(layout_error(
                    0,
                    &format!("kernels[{i}].entry"),
                    format!(
                        "{} is not the offset of the instructions ({entry})",
                        kernel.data.entry
                    ),
                ));
            }
        }
        for (i, function) in self.functions.iter().enumerate() {
            let (_, entry) = function_bytes(&function.data, self.version)?;
            if function.data.entry != entry {
                return Err(layout_error(
                    0,
                    &format!("functions[{i}].entry"),
                    format!(
                        "{} is not the offset of the instructions ({entry})",
                        function.data.entry
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Writes the object file: the header, each kernel object and its machine code, each
    /// function object; offsets, sizes, `input_offset` and `entry` computed from the layout.
    pub fn write(&self) -> Result<Vec<u8>, ObjectError> {
        let mut kernel_objects = Vec::new();
        for kernel in &self.kernels {
            kernel_objects.push(kernel_bytes(&kernel.data, self.version)?);
        }
        let mut function_objects = Vec::new();
        for function in &self.functions {
            function_objects.push(function_bytes(&function.data, self.version)?);
        }
        // The header's size does not depend on the offsets it holds: lay it out once with
        // zeros, then with the real values.
        let header_len = self.header(&kernel_objects, &function_objects, 0)?.len();
        let header = self.header(&kernel_objects, &function_objects, header_len)?;
        let mut out = header;
        for (kernel, (bytes, _)) in self.kernels.iter().zip(&kernel_objects) {
            out.extend_from_slice(bytes);
            for (_, code) in &kernel.gen_binaries {
                out.extend_from_slice(code);
            }
        }
        for (bytes, _) in &function_objects {
            out.extend_from_slice(bytes);
        }
        Ok(out)
    }

    fn header(
        &self,
        kernel_objects: &[(Vec<u8>, u32)],
        function_objects: &[(Vec<u8>, u32)],
        header_len: usize,
    ) -> Result<Vec<u8>, ObjectError> {
        let too_big = |field: &str| layout_error(0, field, "the file exceeds 4 GiB".to_string());
        let mut at = header_len;
        let mut kernels = Vec::new();
        for (kernel, (bytes, _)) in self.kernels.iter().zip(kernel_objects) {
            let offset = u32::try_from(at).map_err(|_| too_big("kernel_info.offset"))?;
            let input_offset = at + position_of_inputs(&kernel.data, self.version)?;
            at += bytes.len();
            let mut gen_binaries = Vec::new();
            for (platform, code) in &kernel.gen_binaries {
                gen_binaries.push(GenBinaryInfo {
                    platform: *platform,
                    binary_offset: u32::try_from(at)
                        .map_err(|_| too_big("gen_binary_info.binary_offset"))?,
                    binary_size: u32::try_from(code.len())
                        .map_err(|_| too_big("gen_binary_info.binary_size"))?,
                });
                at += code.len();
            }
            kernels.push(KernelInfo {
                name: kernel.name.clone(),
                offset,
                size: u32::try_from(bytes.len()).map_err(|_| too_big("kernel_info.size"))?,
                input_offset: u32::try_from(input_offset)
                    .map_err(|_| too_big("kernel_info.input_offset"))?,
                variable_relocs: kernel.relocs.0.clone(),
                function_relocs: kernel.relocs.1.clone(),
                gen_binaries,
            });
        }
        let mut functions = Vec::new();
        for (function, (bytes, _)) in self.functions.iter().zip(function_objects) {
            functions.push(FunctionInfo {
                linkage: function.linkage,
                name: function.name.clone(),
                offset: u32::try_from(at).map_err(|_| too_big("function_info.offset"))?,
                size: u32::try_from(bytes.len()).map_err(|_| too_big("function_info.size"))?,
                variable_relocs: function.relocs.0.clone(),
                function_relocs: function.relocs.1.clone(),
            });
            at += bytes.len();
        }
        let header = CommonIsaHeader {
            major_version: self.version.0,
            minor_version: self.version.1,
            kernels,
            variables: self.file_variables.clone(),
            functions,
        };
        let mut w = Writer::new(self.version);
        header.write(&mut w)?;
        Ok(w.into_bytes())
    }
}

fn check_end(r: &Reader<'_>, offset: u32, size: u32, field: &str) -> Result<(), ObjectError> {
    let end = offset as usize + size as usize;
    if r.pos() != end {
        return Err(layout_error(
            r.pos(),
            field,
            format!(
                "the object ends at byte {}, but its entry says {size} bytes from {offset}",
                r.pos()
            ),
        ));
    }
    Ok(())
}

/// A kernel object's bytes with `entry` set to where its instructions start, and that entry.
fn kernel_bytes(data: &KernelData, version: (u8, u8)) -> Result<(Vec<u8>, u32), ObjectError> {
    let mut w = Writer::new(version);
    data.write(&mut w)?;
    let entry = instructions_at(&w, "kernel_data.instructions")?;
    let mut fixed = data.clone();
    fixed.entry = entry;
    let mut w = Writer::new(version);
    fixed.write(&mut w)?;
    Ok((w.into_bytes(), entry))
}

/// A function object's bytes with `entry` set, and that entry.
fn function_bytes(data: &FunctionData, version: (u8, u8)) -> Result<(Vec<u8>, u32), ObjectError> {
    let mut w = Writer::new(version);
    data.write(&mut w)?;
    let entry = instructions_at(&w, "function_data.instructions")?;
    let mut fixed = data.clone();
    fixed.entry = entry;
    let mut w = Writer::new(version);
    fixed.write(&mut w)?;
    Ok((w.into_bytes(), entry))
}

fn instructions_at(w: &Writer, field: &str) -> Result<u32, ObjectError> {
    w.position_of(field)
        .and_then(|at| u32::try_from(at).ok())
        .ok_or_else(|| {
            layout_error(
                w.len(),
                field,
                "the object has no instruction stream".to_string(),
            )
        })
}

/// Where `num_inputs` lies in a kernel object.
fn position_of_inputs(data: &KernelData, version: (u8, u8)) -> Result<usize, ObjectError> {
    let mut w = Writer::new(version);
    data.write(&mut w)?;
    w.position_of("kernel_data.num_inputs").ok_or_else(|| {
        layout_error(
            0,
            "kernel_data.num_inputs",
            "the kernel object has no inputs field".to_string(),
        )
    })
}

#[cfg(test)]
mod tests;
