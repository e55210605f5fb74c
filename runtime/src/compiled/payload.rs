//! The thread payload as the driver builds it: `%r0` (group ids), the per-thread local ids,
//! then the cross-thread data of every `payload_arguments` entry.

use super::abi::{ArgKind, KernelAbi};
use super::zeinfo::PayloadArgument;

/// Where each argument's memory is, and the launch geometry, as the payload reports them.
pub(super) struct Geometry {
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub groups: [u32; 3],
    pub work_dim: u32,
}

/// Per argument (by index): what the cross-thread data holds for it.
pub(super) enum ArgPlace {
    /// A buffer at this SVM address.
    Buffer { address: u64 },
    /// A `__local` buffer at this SLM offset.
    Local { offset: u32 },
    /// A value's bytes.
    Value(Vec<u8>),
}

/// The cross-thread data (the same for every thread), `size` bytes.
pub(super) fn cross_thread(
    abi: &KernelAbi<'_>,
    geometry: &Geometry,
    places: &[ArgPlace],
    private_base: u64,
) -> Result<Vec<u8>, String> {
    let mut data = vec![0u8; abi.cross_thread_size as usize];
    for entry in &abi.info.payload_arguments {
        let at = entry.offset as usize;
        let size = entry.size as usize;
        let dims = |values: [u32; 3]| -> Vec<u8> {
            values
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .take(size)
                .collect()
        };
        let bytes: Vec<u8> = match entry.arg_type.as_str() {
            "global_id_offset" => dims([0; 3]),
            "local_size" | "enqueued_local_size" => dims(geometry.local),
            "global_size" => dims(geometry.global),
            "group_count" => dims(geometry.groups),
            "work_dimensions" => geometry.work_dim.to_le_bytes().to_vec(),
            "buffer_offset" => 0u32.to_le_bytes().to_vec(),
            "private_base_stateless" => private_base.to_le_bytes().to_vec(),
            "buffer_address" | "arg_bypointer" | "arg_byvalue" => arg_bytes(abi, entry, places)?,
            other => return Err(format!("payload argument kind '{other}'")),
        };
        data[at..at + bytes.len().min(size)].copy_from_slice(&bytes[..bytes.len().min(size)]);
    }
    Ok(data)
}

fn arg_bytes(
    abi: &KernelAbi<'_>,
    entry: &PayloadArgument,
    places: &[ArgPlace],
) -> Result<Vec<u8>, String> {
    let index = entry.arg_index.unwrap_or(0) as usize;
    let place = places
        .get(index)
        .ok_or_else(|| format!("payload entry for argument {index}, which has no value"))?;
    let size = entry.size as usize;
    Ok(match place {
        ArgPlace::Buffer { address } => address.to_le_bytes()[..size.min(8)].to_vec(),
        ArgPlace::Local { offset } => u64::from(*offset).to_le_bytes()[..size.min(8)].to_vec(),
        ArgPlace::Value(bytes) => {
            let start = entry.source_offset.unwrap_or(0) as usize;
            let name = &abi.args[index].name;
            bytes
                .get(start..start + size)
                .ok_or_else(|| {
                    format!(
                        "argument '{name}': {} bytes given, the payload reads bytes {start}..{}",
                        bytes.len(),
                        start + size
                    )
                })?
                .to_vec()
        }
    })
}

/// Writes the `%r0` GRF into `r0` (its bytes): dword 1 holds the group id x, dwords 6 and 7
/// the group ids y and z, byte 8 the thread's index in its group (IGC's `get_sub_group_id`
/// reads it), the rest zero.
pub(super) fn write_r0(r0: &mut [u8], group: [u32; 3], thread: u32) {
    r0.fill(0);
    r0[8] = (thread & 0xff) as u8;
    r0[4..8].copy_from_slice(&group[0].to_le_bytes());
    r0[24..28].copy_from_slice(&group[1].to_le_bytes());
    r0[28..32].copy_from_slice(&group[2].to_le_bytes());
}

/// The coordinates of linear index `linear` in a grid of `dims` (x fastest): a work-group's id
/// from its number in the launch, a work-item's local id from its number in the group.
pub(super) fn unflatten(linear: u32, dims: [u32; 3]) -> [u32; 3] {
    [
        linear % dims[0],
        linear / dims[0] % dims[1],
        linear / (dims[0] * dims[1]),
    ]
}

/// The per-thread local ids of thread `thread` of a group: for each dimension in turn, one
/// 16-bit id per lane, padded to whole GRFs. Lane `l` is work-item `thread * SIMD + l` of the
/// group in linear order (x fastest); lanes past the group's last work-item hold 0.
pub(super) fn local_ids(abi: &KernelAbi<'_>, local: [u32; 3], thread: u32) -> Vec<u8> {
    let simd = abi.simd();
    let dim_bytes = abi.local_id_dim_bytes() as usize;
    let mut ids = vec![0u8; abi.per_thread_size as usize];
    let items = local[0] * local[1] * local[2];
    for lane in 0..simd {
        let linear = thread * simd + lane;
        if linear >= items {
            break;
        }
        let id = unflatten(linear, local);
        for (dim, value) in id.iter().enumerate() {
            let at = dim * dim_bytes + 2 * lane as usize;
            if at + 2 <= ids.len() {
                ids[at..at + 2].copy_from_slice(&(*value as u16).to_le_bytes());
            }
        }
    }
    ids
}

/// Whether an argument's kind needs the SLM offset or a buffer (for error messages).
pub(super) fn describe(kind: &ArgKind) -> &'static str {
    match kind {
        ArgKind::Buffer { .. } => "a buffer (@FILE.npy or TYPE=[LIST])",
        ArgKind::Local { .. } => "local memory (local:BYTES)",
        ArgKind::Value { .. } => "a value",
    }
}
