//! Running a compiled kernel: argument values, the launch geometry, memory, the payload of every
//! thread, and the outputs; a trap is reported with the OpenCL argument, work-item and vISA line.

use visa_isa::ast::ElemType;

use super::abi::{ArgKind, KernelAbi};
use super::payload::{self, ArgPlace, Geometry};
use super::visa::PAYLOAD_VAR;
use super::{CompiledError, LoadedKernel};
use crate::launch::ids::ThreadPlace;
use crate::memory::{Buffer, Element, from_bytes, to_bytes};
use crate::{Launch, LaunchError, Svm, TrapKind};

/// The largest work-group (work-items), as on DG2 and PVC.
pub const MAX_WORK_GROUP_SIZE: u32 = 1024;
/// The SLM of a work-group on DG2 and PVC: 64 KiB.
pub const MAX_SLM_BYTES: u32 = 64 * 1024;
/// Lanes of a launch whose work-groups leave lanes of their last thread unused, at most (a flag
/// per lane says which run).
const MAX_PARTIAL_GROUP_LANES: u64 = 1 << 30;
/// SLM address bits the SLM messages use: IGC tags local pointers with bit 28.
const SLM_ADDRESS_MASK: u64 = 0x0FFF_FFFF;

/// One argument's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    /// A buffer's initial bytes (`__global`, `__constant`).
    Buffer(Vec<u8>),
    /// A value's bytes (a scalar, vector or struct passed by value).
    Value(Vec<u8>),
    /// A `__local` buffer of this many bytes.
    Local(u32),
}

impl ArgValue {
    pub fn buffer<T: Element>(values: &[T]) -> ArgValue {
        ArgValue::Buffer(to_bytes(values))
    }

    pub fn scalar<T: Element>(value: T) -> ArgValue {
        ArgValue::Value(to_bytes(&[value]))
    }

    pub fn local(bytes: u32) -> ArgValue {
        ArgValue::Local(bytes)
    }
}

/// What a launch leaves: each buffer argument's bytes, in argument order.
#[derive(Debug, Clone)]
pub struct LaunchOutput {
    pub buffers: Vec<(String, Vec<u8>)>,
    /// The work-group size used (the given one, or the one chosen).
    pub local: [u32; 3],
    /// Instructions executed.
    pub steps: u64,
}

impl LaunchOutput {
    pub fn buffer(&self, name: &str) -> Option<&[u8]> {
        self.buffers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// A buffer argument's contents as elements of `T`.
    pub fn buffer_as<T: Element>(&self, name: &str) -> Result<Vec<T>, CompiledError> {
        let bytes = self
            .buffer(name)
            .ok_or_else(|| CompiledError::Launch(format!("no buffer argument '{name}'")))?;
        if bytes.len() % std::mem::size_of::<T>() != 0 {
            return Err(CompiledError::Launch(format!(
                "buffer '{name}' has {} bytes, not a whole number of {}-byte elements",
                bytes.len(),
                std::mem::size_of::<T>()
            )));
        }
        Ok(from_bytes(bytes))
    }
}

/// The work-group size chosen without `--local`, as the driver chooses for a range it is given
/// no size for: in dimension 0 the largest divisor of the global size of at most 256
/// work-items (preferring multiples of the SIMD width), 1 in the others.
pub fn default_local_size(global: [u32; 3], simd: u32) -> [u32; 3] {
    let divisors = (1..=256.min(global[0]))
        .rev()
        .filter(|d| global[0].is_multiple_of(*d));
    let best = divisors
        .clone()
        .find(|d| d.is_multiple_of(simd))
        .or_else(|| divisors.clone().next())
        .unwrap_or(1);
    [best, 1, 1]
}

fn launch_error(message: impl Into<String>) -> CompiledError {
    CompiledError::Launch(message.into())
}

fn dims3(values: &[u32], what: &str) -> Result<[u32; 3], CompiledError> {
    if values.is_empty() || values.len() > 3 {
        return Err(launch_error(format!(
            "the {what} size has {} dimensions (1 to 3)",
            values.len()
        )));
    }
    let mut out = [1u32; 3];
    for (i, v) in values.iter().enumerate() {
        if *v == 0 {
            return Err(launch_error(format!(
                "the {what} size is 0 in dimension {i}"
            )));
        }
        out[i] = *v;
    }
    Ok(out)
}

pub(super) fn run(
    kernel: &LoadedKernel<'_>,
    global: &[u32],
    local: Option<&[u32]>,
    args: &[ArgValue],
) -> Result<LaunchOutput, CompiledError> {
    let abi = &kernel.abi;
    let simd = abi.simd();
    let work_dim = global.len() as u32;
    let global = dims3(global, "global")?;
    let local = match local {
        Some(l) if l.len() != work_dim as usize => {
            return Err(launch_error(format!(
                "the local size has {} dimensions, the global size {work_dim}",
                l.len()
            )));
        }
        Some(l) => dims3(l, "local")?,
        None => default_local_size(global, simd),
    };
    let mut groups = [0u32; 3];
    for d in 0..3 {
        if !global[d].is_multiple_of(local[d]) {
            return Err(launch_error(format!(
                "the global size {} is not a multiple of the local size {} in dimension {d} \
                 (non-uniform work-groups are not supported)",
                global[d], local[d]
            )));
        }
        groups[d] = global[d] / local[d];
    }
    let items = u64::from(local[0]) * u64::from(local[1]) * u64::from(local[2]);
    if items > u64::from(MAX_WORK_GROUP_SIZE) {
        return Err(launch_error(format!(
            "a work-group of {items} work-items is larger than {MAX_WORK_GROUP_SIZE}"
        )));
    }
    let items = items as u32;
    let total_groups = u64::from(groups[0]) * u64::from(groups[1]) * u64::from(groups[2]);
    let total_groups = u32::try_from(total_groups)
        .map_err(|_| launch_error(format!("{total_groups} work-groups are too many")))?;
    let threads_per_group = items.div_ceil(simd);
    let total_threads = u64::from(total_groups) * u64::from(threads_per_group);
    let payload_bytes = kernel.payload.bytes;

    // Memory: buffers in SVM, __local arguments after the static SLM.
    if args.len() != abi.args.len() {
        return Err(launch_error(format!(
            "kernel '{}' takes {} arguments ({}), {} given",
            abi.info.name,
            abi.args.len(),
            abi.args
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            args.len()
        )));
    }
    let mut svm = Svm::new();
    abi.data
        .place(&mut svm)
        .map_err(|e| launch_error(format!("program data: {e}")))?;
    let mut places = Vec::with_capacity(args.len());
    let mut buffers: Vec<(usize, u64, u64)> = Vec::new();
    let mut slm = abi.info.execution_env.slm_size;
    for (position, (arg, value)) in abi.args.iter().zip(args).enumerate() {
        let wrong = || {
            launch_error(format!(
                "argument '{}' ({}) is {}",
                arg.name,
                arg.type_name,
                payload::describe(&arg.kind)
            ))
        };
        places.push(match (&arg.kind, value) {
            (ArgKind::Buffer { .. }, ArgValue::Buffer(bytes)) => {
                let address = svm
                    .try_alloc_bytes(bytes)
                    .map_err(|e| launch_error(format!("argument '{}': {e}", arg.name)))?;
                buffers.push((position, address, bytes.len() as u64));
                ArgPlace::Buffer { address }
            }
            (ArgKind::Local { alignment }, ArgValue::Local(size)) => {
                let offset = slm.next_multiple_of(*alignment);
                slm = offset
                    .checked_add(*size)
                    .filter(|end| *end <= MAX_SLM_BYTES)
                    .ok_or_else(|| {
                        launch_error(format!(
                            "argument '{}': {size} bytes of local memory exceed the {MAX_SLM_BYTES} \
                             bytes of SLM",
                            arg.name
                        ))
                    })?;
                ArgPlace::Local { offset }
            }
            (ArgKind::Value { size }, ArgValue::Value(bytes)) => {
                if bytes.len() != *size as usize {
                    return Err(launch_error(format!(
                        "argument '{}' ({}) takes {size} bytes, {} given",
                        arg.name,
                        arg.type_name,
                        bytes.len()
                    )));
                }
                ArgPlace::Value(bytes.clone())
            }
            _ => return Err(wrong()),
        });
    }
    let private_base = if abi
        .info
        .payload_arguments
        .iter()
        .any(|e| e.arg_type == "private_base_stateless")
    {
        // No private memory is declared (per_thread_memory_buffers): an empty allocation, so
        // any access through it traps.
        svm.try_alloc(0)
            .map_err(|e| launch_error(format!("private memory: {e}")))?
    } else {
        0
    };
    let geometry = Geometry {
        global,
        local,
        groups,
        work_dim,
    };
    let cross =
        payload::cross_thread(abi, &geometry, &places, private_base).map_err(|message| {
            CompiledError::Unsupported {
                kernel: abi.info.name.clone(),
                message,
            }
        })?;

    // Every thread's payload starts as the template (the cross-thread data after zeroed
    // `%r0` and local ids); its `%r0` and local ids are written as it starts (`write_own`), so
    // that no launch builds the payload of all its threads up front.
    let mut template = vec![0u8; payload_bytes as usize];
    let start = kernel.payload.cross_thread_start as usize;
    template[start..start + cross.len()].copy_from_slice(&cross);
    let grf = abi.grf_bytes() as usize;
    // A thread's local ids depend only on its place in the group.
    let ids: Vec<Vec<u8>> = (0..threads_per_group)
        .map(|thread| payload::local_ids(abi, local, thread))
        .collect();
    let write_own = |place: ThreadPlace, own: &mut [u8]| {
        if let Some(r0) = own.get_mut(..grf) {
            payload::write_r0(r0, payload::unflatten(place.group, groups), place.in_group);
        }
        let ids = ids
            .get(place.in_group as usize)
            .map_or(&[][..], Vec::as_slice);
        if let Some(to) = own.get_mut(grf..grf + ids.len()) {
            to.copy_from_slice(ids);
        }
    };
    let mut table: Vec<(u32, u64, u64)> = Vec::new();
    for (position, address, len) in &buffers {
        if let ArgKind::Buffer { bti: Some(bti) } = abi.args[*position].kind {
            table.push((bti, *address, *len));
        }
    }
    // Compiler output reads register bytes it never wrote (the hardware reads what is there).
    let mut launch = Launch::new(&kernel.program)
        .trap_undefined_reads(false)
        .simd(simd)
        .groups(total_groups)
        .threads_per_group(threads_per_group)
        .svm(&svm)
        .svm_binding_table(table)
        .slm_size(slm as usize)
        .slm_address_mask(SLM_ADDRESS_MASK)
        .bind_elements_bytes(PAYLOAD_VAR, ElemType::Ud, template)
        .bind_thread_writer(PAYLOAD_VAR, &write_own);
    if !items.is_multiple_of(simd) {
        // One flag per lane of the launch (checked first: nothing else of the launch grows with
        // its size).
        let lanes = total_threads * u64::from(simd);
        if lanes > MAX_PARTIAL_GROUP_LANES {
            return Err(launch_error(format!(
                "{lanes} lanes: work-groups that are not a whole number of SIMD{simd} threads are \
                 supported up to {MAX_PARTIAL_GROUP_LANES} lanes"
            )));
        }
        let per_group = (threads_per_group * simd) as usize;
        let flags: Vec<bool> = (0..lanes as usize)
            .map(|w| (w % per_group) < items as usize)
            .collect();
        launch = launch.active_lanes(&flags);
    }
    let result = launch.run().map_err(|error| match error {
        LaunchError::Trap(trap) => trap_error(abi, &geometry, &buffers, trap),
        other => CompiledError::Runtime(other),
    })?;
    let mut outputs = Vec::new();
    // (The launch is over: each buffer is taken out of the SVM and its words read plainly.)
    for (position, address, _) in &buffers {
        let name = &abi.args[*position].name;
        let bytes = (svm.take(*address))
            .and_then(Buffer::try_into_bytes)
            .ok_or_else(|| launch_error(format!("reading back '{name}': out of memory")))?;
        outputs.push((name.clone(), bytes));
    }
    Ok(LaunchOutput {
        buffers: outputs,
        local,
        steps: result.steps(),
    })
}

/// A trap, told in OpenCL terms: the argument whose memory the access missed (when it is an
/// access past a buffer), the work-item (global id) and the vISA line.
fn trap_error(
    abi: &KernelAbi<'_>,
    geometry: &Geometry,
    buffers: &[(usize, u64, u64)],
    trap: Box<crate::Trap>,
) -> CompiledError {
    let simd = abi.simd();
    let group = payload::unflatten(trap.group, geometry.groups);
    let local = geometry.local;
    let work_item = trap.lane.map(|lane| {
        let lid = payload::unflatten(trap.thread * simd + lane, local);
        [
            group[0] * local[0] + lid[0],
            group[1] * local[1] + lid[1],
            group[2] * local[2] + lid[2],
        ]
    });
    let address = match &trap.kind {
        TrapKind::SvmOutOfBounds { address, .. } | TrapKind::SvmUnmapped { address } => {
            Some(*address)
        }
        _ => None,
    };
    // The buffer an address belongs to, or runs past (the nearest one below it).
    let argument = address.and_then(|address| {
        buffers
            .iter()
            .filter(|(_, base, _)| *base <= address)
            .max_by_key(|(_, base, _)| *base)
            .map(|(position, base, len)| (abi.args[*position].name.clone(), address - base, *len))
    });
    let mut message = String::new();
    match argument {
        Some((name, offset, len)) => message.push_str(&format!(
            "out-of-bounds access to argument '{name}' (byte {offset} of a {len}-byte buffer)"
        )),
        None => message.push_str(&trap.kind.to_string()),
    }
    match work_item {
        Some(id) => message.push_str(&format!(" by work-item ({}, {}, {})", id[0], id[1], id[2])),
        None => message.push_str(&format!(
            " in work-group ({}, {}, {}), thread {}",
            group[0], group[1], group[2], trap.thread
        )),
    }
    message.push_str(&format!(
        " at vISA line {}: {} ({})",
        trap.span.line, trap.instruction, trap.kind
    ));
    CompiledError::Trap { message, trap }
}
