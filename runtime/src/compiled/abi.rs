//! A kernel's ABI as its zeInfo describes it: the arguments (by their OpenCL names), the
//! per-thread payload (local ids) and the cross-thread data, every entry validated.

use super::CompiledError;
use super::zebin::Device;
use super::zeinfo::{ArgInfo, KernelInfo, KernelMiscInfo, PayloadArgument};

/// The pseudo-kernel IGC adds to hold a program's symbol table.
pub(super) const SYMBOL_TABLE_KERNEL: &str = "Intel_Symbol_Table_Void_Program";

/// The payload_arguments kinds this runtime writes (the list of supported ABI kinds).
pub const PAYLOAD_KINDS: &[&str] = &[
    "global_id_offset",
    "local_size",
    "enqueued_local_size",
    "global_size",
    "group_count",
    "work_dimensions",
    "arg_bypointer",
    "arg_byvalue",
    "buffer_address",
    "buffer_offset",
    "private_base_stateless",
];

/// What an argument is, from the payload entries that refer to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgKind {
    /// A `__global` or `__constant` buffer: reached through its SVM address (stateless), its
    /// binding-table index (stateful), or both.
    Buffer { bti: Option<u32> },
    /// A `__local` buffer: its size is given at launch, its SLM offset is the payload value.
    Local { alignment: u32 },
    /// A value copied into the cross-thread data (`size` bytes: a scalar, vector or struct).
    Value { size: u32 },
}

/// One kernel argument.
#[derive(Debug, Clone)]
pub struct KernelArg {
    pub index: u32,
    /// The OpenCL name (`argN` when the zebin has no argument names).
    pub name: String,
    /// The OpenCL type as IGC records it (`float*`, `int`, `params_t`).
    pub type_name: String,
    pub kind: ArgKind,
}

/// The program's global and constant data, placed in SVM before anything else of a launch so
/// that its addresses are known when the vISA is loaded (`faddr SYMBOL` becomes the address).
pub(super) struct ProgramData {
    /// Each section's contents and the SVM address it gets.
    pub sections: Vec<(String, Vec<u8>, u64)>,
    /// Symbol name and SVM address.
    pub symbols: Vec<(String, u64)>,
}

impl ProgramData {
    pub fn new(
        sections: Vec<(String, Vec<u8>)>,
        symbols: Vec<(String, String, u64)>,
    ) -> Result<Self, CompiledError> {
        let mut svm = crate::Svm::new();
        let mut placed = Vec::new();
        for (name, bytes) in sections {
            let address = svm
                .try_alloc(bytes.len())
                .map_err(|e| CompiledError::Zebin(format!("{name}: {e}")))?;
            placed.push((name, bytes, address));
        }
        let mut addresses = Vec::new();
        for (symbol, section, offset) in symbols {
            let Some((_, bytes, base)) = placed.iter().find(|(n, ..)| *n == section) else {
                continue;
            };
            if offset > bytes.len() as u64 {
                return Err(CompiledError::Zebin(format!(
                    "symbol {symbol} at offset {offset} lies past the end of {section}"
                )));
            }
            addresses.push((symbol, base + offset));
        }
        Ok(ProgramData {
            sections: placed,
            symbols: addresses,
        })
    }

    /// Allocates the sections in `svm` (which must be fresh) at the addresses promised.
    pub fn place(&self, svm: &mut crate::Svm) -> Result<(), String> {
        for (name, bytes, address) in &self.sections {
            let got = svm
                .try_alloc(bytes.len())
                .map_err(|e| format!("{name}: {e}"))?;
            if got != *address {
                return Err(format!("{name}: placed at {got:#x}, not at {address:#x}"));
            }
            svm.write(got, bytes).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(())
    }
}

pub(super) struct KernelAbi<'p> {
    pub device: Device,
    pub data: &'p ProgramData,
    pub info: &'p KernelInfo,
    pub args: Vec<KernelArg>,
    /// Bytes of per-thread data (the local ids) after `%r0`.
    pub per_thread_size: u32,
    /// Bytes of cross-thread data the payload entries cover.
    pub cross_thread_size: u32,
}

impl<'p> KernelAbi<'p> {
    pub fn new(
        device: Device,
        info: &'p KernelInfo,
        misc: Option<&KernelMiscInfo>,
        data: &'p ProgramData,
    ) -> Result<Self, CompiledError> {
        let kernel = info.name.clone();
        let unsupported = |message: String| CompiledError::Unsupported {
            kernel: kernel.clone(),
            message,
        };
        if info.name == SYMBOL_TABLE_KERNEL {
            return Err(unsupported(
                "the program's symbol table is not a kernel".into(),
            ));
        }
        let env = &info.execution_env;
        if !matches!(env.simd_size, 1 | 8 | 16 | 32) {
            return Err(unsupported(format!("simd_size {}", env.simd_size)));
        }
        if let Some(buffer) = info.per_thread_memory_buffers.first() {
            return Err(unsupported(format!(
                "per_thread_memory_buffers ({} for {}, {} bytes): private and scratch memory are \
                 not allocated",
                buffer.kind, buffer.usage, buffer.size
            )));
        }
        let per_thread_size = local_id_size(device, info, &unsupported)?;
        let mut args: Vec<KernelArg> = Vec::new();
        let names: &[ArgInfo] = misc.map(|m| m.args_info.as_slice()).unwrap_or(&[]);
        let mut cross_thread_size = 0u32;
        for entry in &info.payload_arguments {
            let end = entry
                .offset
                .checked_add(entry.size)
                .filter(|end| *end <= MAX_CROSS_THREAD)
                .ok_or_else(|| {
                    unsupported(format!(
                        "payload argument {} at offset {} of {} bytes lies past the {} bytes of \
                         cross-thread data accepted",
                        entry.arg_type, entry.offset, entry.size, MAX_CROSS_THREAD
                    ))
                })?;
            cross_thread_size = cross_thread_size.max(end);
            check_entry(entry, &unsupported)?;
            if let Some(index) = entry.arg_index {
                let kind = arg_kind(info, entry, &unsupported)?;
                let Some(kind) = kind else { continue };
                match args.iter_mut().find(|a| a.index == index) {
                    Some(arg) => merge_kind(&mut arg.kind, kind, index, &unsupported)?,
                    None => {
                        let named = names.iter().find(|a| a.index == index);
                        args.push(KernelArg {
                            index,
                            name: named.map_or_else(|| format!("arg{index}"), |a| a.name.clone()),
                            type_name: named.map_or_else(String::new, |a| {
                                a.type_name.split(';').next().unwrap_or("").to_string()
                            }),
                            kind,
                        });
                    }
                }
            }
        }
        // Arguments the kernel never reads have no payload entry: take their kind from the
        // source's address qualifier.
        for named in names {
            if args.iter().any(|a| a.index == named.index) {
                continue;
            }
            let (ty, size) = named
                .type_name
                .split_once(';')
                .unwrap_or((&named.type_name, "0"));
            let kind = match named.address_qualifier.as_str() {
                "__global" | "__constant" => ArgKind::Buffer { bti: None },
                "__local" => ArgKind::Local { alignment: 1 },
                "__private" => ArgKind::Value {
                    size: size.parse().unwrap_or(0),
                },
                other => return Err(unsupported(format!("argument qualifier {other}"))),
            };
            args.push(KernelArg {
                index: named.index,
                name: named.name.clone(),
                type_name: ty.to_string(),
                kind,
            });
        }
        // A value's size is its type's (a struct's payload entries may leave out padding).
        for arg in &mut args {
            let declared = names
                .iter()
                .find(|n| n.index == arg.index)
                .and_then(|n| n.type_name.rsplit_once(';'))
                .and_then(|(_, size)| size.parse::<u32>().ok());
            if let (ArgKind::Value { size }, Some(declared)) = (&mut arg.kind, declared) {
                *size = (*size).max(declared);
            }
        }
        args.sort_by_key(|a| a.index);
        for (position, arg) in args.iter().enumerate() {
            if arg.index as usize != position {
                return Err(unsupported(format!(
                    "argument {position} has no payload entry and no name: its kind is unknown"
                )));
            }
        }
        for bti in &info.binding_table_indices {
            let arg = args
                .iter()
                .find(|a| a.index == bti.arg_index)
                .ok_or_else(|| {
                    unsupported(format!(
                        "binding table entry {} names argument {}, which does not exist",
                        bti.bti_value, bti.arg_index
                    ))
                })?;
            if !matches!(arg.kind, ArgKind::Buffer { bti: Some(n) } if n == bti.bti_value) {
                return Err(unsupported(format!(
                    "binding table entry {} for argument '{}', which is not a stateful buffer",
                    bti.bti_value, arg.name
                )));
            }
        }
        Ok(KernelAbi {
            device,
            data,
            info,
            args,
            per_thread_size,
            cross_thread_size,
        })
    }

    pub fn grf_bytes(&self) -> u32 {
        self.device.grf_bytes()
    }

    pub fn simd(&self) -> u32 {
        self.info.execution_env.simd_size
    }

    /// Bytes per local-id dimension: one 16-bit id per lane, padded to whole GRFs.
    pub fn local_id_dim_bytes(&self) -> u32 {
        local_id_dim_bytes(self.device, self.simd())
    }
}

/// More cross-thread data than any kernel's payload could use (the GRF file is at most 256
/// GRFs of 64 bytes).
const MAX_CROSS_THREAD: u32 = 16 * 1024;

fn local_id_dim_bytes(device: Device, simd: u32) -> u32 {
    (2 * simd).next_multiple_of(device.grf_bytes())
}

fn local_id_size(
    device: Device,
    info: &KernelInfo,
    unsupported: &impl Fn(String) -> CompiledError,
) -> Result<u32, CompiledError> {
    let mut size = 0;
    for entry in &info.per_thread_payload_arguments {
        match entry.arg_type.as_str() {
            "local_id" => {
                let dim = local_id_dim_bytes(device, info.execution_env.simd_size);
                if entry.offset != 0
                    || entry.size == 0
                    || !entry.size.is_multiple_of(dim)
                    || entry.size > 3 * dim
                {
                    return Err(unsupported(format!(
                        "local_id at offset {} of {} bytes: expected 1 to 3 dimensions of {dim} \
                         bytes at offset 0",
                        entry.offset, entry.size
                    )));
                }
                size = entry.size;
            }
            other => {
                return Err(unsupported(format!(
                    "per-thread payload argument '{other}'"
                )));
            }
        }
    }
    Ok(size)
}

/// Checks one entry's kind and size.
fn check_entry(
    entry: &PayloadArgument,
    unsupported: &impl Fn(String) -> CompiledError,
) -> Result<(), CompiledError> {
    let size_ok = match entry.arg_type.as_str() {
        "global_id_offset"
        | "local_size"
        | "enqueued_local_size"
        | "global_size"
        | "group_count" => matches!(entry.size, 4 | 8 | 12),
        "work_dimensions" | "buffer_offset" => entry.size == 4,
        "buffer_address" | "private_base_stateless" => entry.size == 8,
        "arg_bypointer" => matches!(entry.size, 0 | 4 | 8),
        "arg_byvalue" => entry.size > 0,
        other => {
            return Err(unsupported(format!(
                "payload argument kind '{other}' is not supported (supported: {})",
                PAYLOAD_KINDS.join(", ")
            )));
        }
    };
    if !size_ok {
        return Err(unsupported(format!(
            "payload argument {} of {} bytes",
            entry.arg_type, entry.size
        )));
    }
    Ok(())
}

/// The argument kind an entry implies (`None`: the entry adds nothing to the kind).
fn arg_kind(
    info: &KernelInfo,
    entry: &PayloadArgument,
    unsupported: &impl Fn(String) -> CompiledError,
) -> Result<Option<ArgKind>, CompiledError> {
    let index = entry.arg_index.unwrap_or(0);
    Ok(Some(match entry.arg_type.as_str() {
        "arg_bypointer" => {
            let space = entry.addrspace.as_deref().unwrap_or("");
            let mode = entry.addrmode.as_deref().unwrap_or("");
            match (space, mode) {
                ("global" | "constant", "stateful") => ArgKind::Buffer {
                    bti: Some(
                        info.binding_table_indices
                            .iter()
                            .find(|b| b.arg_index == index)
                            .map(|b| b.bti_value)
                            .ok_or_else(|| {
                                unsupported(format!(
                                    "argument {index} is stateful but has no binding-table entry"
                                ))
                            })?,
                    ),
                },
                ("global" | "constant", "stateless") => ArgKind::Buffer { bti: None },
                ("local", "slm") => ArgKind::Local {
                    alignment: entry.slm_alignment.unwrap_or(1).max(1),
                },
                _ => {
                    return Err(unsupported(format!(
                        "argument {index}: pointer to the {space} address space in {mode} mode"
                    )));
                }
            }
        }
        "arg_byvalue" => ArgKind::Value {
            size: entry.source_offset.unwrap_or(0) + entry.size,
        },
        "buffer_address" | "buffer_offset" => ArgKind::Buffer { bti: None },
        _ => return Ok(None),
    }))
}

/// Combines the kinds two entries of one argument imply.
fn merge_kind(
    kind: &mut ArgKind,
    other: ArgKind,
    index: u32,
    unsupported: &impl Fn(String) -> CompiledError,
) -> Result<(), CompiledError> {
    match (&mut *kind, other) {
        (ArgKind::Buffer { bti }, ArgKind::Buffer { bti: other }) => {
            if bti.is_none() {
                *bti = other;
            }
        }
        (ArgKind::Value { size }, ArgKind::Value { size: other }) => *size = (*size).max(other),
        (ArgKind::Local { .. }, ArgKind::Local { .. }) => {}
        (a, b) => {
            return Err(unsupported(format!(
                "argument {index} is described both as {a:?} and as {b:?}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compiled::zeinfo::ZeInfo;

    const KERNEL: &str = "version: '1.20'
kernels:
  - name: k
    execution_env:
      grf_count: 128
      simd_size: 16
    payload_arguments:
      - arg_type: local_size
        offset: 0
        size: 12
      - arg_type: ENTRY
        offset: 16
        size: 8
        arg_index: 0
    per_thread_payload_arguments:
      - arg_type: local_id
        offset: 0
        size: 96
";

    fn abi_error(entry: &str) -> String {
        let info: ZeInfo = serde_norway::from_str(&KERNEL.replace("ENTRY", entry)).expect("YAML");
        let data = ProgramData::new(Vec::new(), Vec::new()).expect("no data");
        match KernelAbi::new(Device::Dg2, &info.kernels[0], None, &data) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn an_unsupported_payload_kind_is_an_error_naming_it() {
        let error = abi_error("image_height");
        assert!(
            error.contains("payload argument kind 'image_height' is not supported"),
            "{error}"
        );
        assert_eq!(abi_error("buffer_address"), "");
    }

    #[test]
    fn an_unknown_field_is_an_error_naming_it() {
        let yaml = KERNEL.replace("ENTRY", "buffer_address").replace(
            "      simd_size: 16",
            "      simd_size: 16\n      has_stack_calls: true",
        );
        let error = serde_norway::from_str::<ZeInfo>(&yaml).expect_err("unknown field");
        assert!(
            error
                .to_string()
                .contains("unknown field `has_stack_calls`"),
            "{error}"
        );
    }

    #[test]
    fn local_ids_take_whole_grfs_per_dimension() {
        assert_eq!(local_id_dim_bytes(Device::Dg2, 16), 32);
        assert_eq!(local_id_dim_bytes(Device::Dg2, 32), 64);
        assert_eq!(local_id_dim_bytes(Device::Pvc, 16), 64);
        assert_eq!(local_id_dim_bytes(Device::Pvc, 32), 64);
        let error = abi_error("buffer_address").len();
        assert_eq!(error, 0);
        let yaml = KERNEL
            .replace("ENTRY", "buffer_address")
            .replace("size: 96", "size: 80");
        let info: ZeInfo = serde_norway::from_str(&yaml).expect("YAML");
        let data = ProgramData::new(Vec::new(), Vec::new()).expect("no data");
        let error = KernelAbi::new(Device::Dg2, &info.kernels[0], None, &data)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("local_id at offset 0 of 80 bytes"),
            "{error}"
        );
    }
}
