//! Kernels compiled by IGC, launched with the driver's ABI.
//!
//! A zebin (`ocloc compile -file k.cl -device dg2|pvc --format zebin`) describes each kernel's
//! arguments and thread payload in its `.ze_info` section; IGC's dump of the kernel's vISA
//! (`IGC_ShaderDumpEnable=1`, `*.visaasm`) is what runs here. [`CompiledProgram`] reads the
//! zebin, [`CompiledKernel::visa`] loads the dumped text and maps its `.input` variables onto
//! one per-thread payload, and [`LoadedKernel::launch`] builds that payload as the driver does
//! (`%r0` with the group ids, the per-thread local ids, the cross-thread data of every
//! `payload_arguments` entry), puts buffers in SVM (stateless addresses) and in a binding table
//! numbered from 0 (stateful accesses), sizes SLM for `__local` arguments and runs the kernel.
//!
//! ```no_run
//! use visa_runtime::compiled::{ArgValue, CompiledProgram};
//! let zebin = std::fs::read("saxpy.bin")?;
//! let visa = std::fs::read_to_string("saxpy.visaasm")?;
//! let x: Vec<f32> = (0..64).map(|i| i as f32).collect();
//! let out = CompiledProgram::from_zebin(&zebin)?
//!     .kernel("saxpy")?
//!     .visa(&visa)?
//!     .launch(&[64], Some(&[32]), &[ArgValue::buffer(&x), ArgValue::buffer(&x), ArgValue::scalar(2.0f32)])?;
//! let y: Vec<f32> = out.buffer_as("y")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod abi;
mod launch;
pub mod npy;
mod payload;
mod visa;
mod zebin;
mod zeinfo;

pub use abi::{ArgKind, KernelArg};
pub use launch::{ArgValue, LaunchOutput};
pub use zebin::Device;

use crate::{Engine, JitTier, LoadError, Program};

/// Why a compiled kernel cannot be read, loaded or launched.
#[derive(Debug, thiserror::Error)]
pub enum CompiledError {
    #[error("zebin: {0}")]
    Zebin(String),
    #[error("zeInfo: {0}")]
    ZeInfo(String),
    #[error("no kernel '{name}' in the program (kernels: {available})")]
    NoKernel { name: String, available: String },
    /// An ABI feature (argument kind, payload entry, zeInfo field) this runtime does not support.
    #[error("kernel '{kernel}': {message}")]
    Unsupported { kernel: String, message: String },
    /// The dumped vISA does not fit the zebin's description of the kernel.
    #[error("kernel '{kernel}': the vISA does not match the zebin: {message}")]
    Mismatch { kernel: String, message: String },
    #[error("vISA line {line}: {message}")]
    Parse { line: u32, message: String },
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A bad argument or launch size.
    #[error("{0}")]
    Launch(String),
    /// The kernel trapped; the message names the OpenCL argument, work-item and vISA line.
    #[error("{message}")]
    Trap {
        message: String,
        trap: Box<crate::Trap>,
    },
    #[error(transparent)]
    Runtime(#[from] crate::LaunchError),
}

/// A zebin: its device and the ABI of each kernel.
pub struct CompiledProgram {
    device: Device,
    ze_info: zeinfo::ZeInfo,
    data: abi::ProgramData,
}

impl CompiledProgram {
    /// Reads a zebin (ELF with a `.ze_info` section) as `ocloc --format zebin` writes it.
    pub fn from_zebin(bytes: &[u8]) -> Result<CompiledProgram, CompiledError> {
        let zebin = zebin::read(bytes)?;
        Ok(CompiledProgram {
            device: zebin.device,
            ze_info: zebin.ze_info,
            data: abi::ProgramData::new(zebin.data_sections, zebin.symbols)?,
        })
    }

    pub fn device(&self) -> Device {
        self.device
    }

    /// The kernels the program defines (IGC's `Intel_Symbol_Table_Void_Program` left out).
    pub fn kernel_names(&self) -> Vec<&str> {
        self.ze_info
            .kernels
            .iter()
            .map(|k| k.name.as_str())
            .filter(|n| *n != abi::SYMBOL_TABLE_KERNEL)
            .collect()
    }

    /// One kernel's ABI, by name.
    pub fn kernel(&self, name: &str) -> Result<CompiledKernel<'_>, CompiledError> {
        let info = self
            .ze_info
            .kernels
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| CompiledError::NoKernel {
                name: name.to_string(),
                available: self.kernel_names().join(", "),
            })?;
        let misc = self
            .ze_info
            .kernels_misc_info
            .iter()
            .find(|k| k.name == name);
        let abi = abi::KernelAbi::new(self.device, info, misc, &self.data)?;
        Ok(CompiledKernel { abi })
    }
}

/// A kernel's ABI, before its vISA is loaded.
pub struct CompiledKernel<'p> {
    abi: abi::KernelAbi<'p>,
}

impl<'p> CompiledKernel<'p> {
    pub fn name(&self) -> &str {
        &self.abi.info.name
    }

    /// The SIMD width the kernel was compiled for.
    pub fn simd_size(&self) -> u32 {
        self.abi.info.execution_env.simd_size
    }

    /// The kernel's arguments, in order, with the names of the OpenCL source.
    pub fn args(&self) -> &[KernelArg] {
        &self.abi.args
    }

    /// Loads the kernel's dumped vISA (the `.visaasm` text) on the default engine.
    pub fn visa(self, text: &str) -> Result<LoadedKernel<'p>, CompiledError> {
        self.visa_with_engine(text, Engine::from_env())
    }

    /// Loads the kernel's dumped vISA on `engine`.
    pub fn visa_with_engine(
        self,
        text: &str,
        engine: Engine,
    ) -> Result<LoadedKernel<'p>, CompiledError> {
        self.visa_with_tier(text, engine, JitTier::default())
    }

    /// Loads the kernel's dumped vISA on `engine`, compiled as `tier` says when that is the JIT.
    pub fn visa_with_tier(
        self,
        text: &str,
        engine: Engine,
        tier: JitTier,
    ) -> Result<LoadedKernel<'p>, CompiledError> {
        let (program, payload) = visa::load(&self.abi, text, (engine, tier))?;
        Ok(LoadedKernel {
            abi: self.abi,
            program,
            payload,
        })
    }
}

/// A compiled kernel ready to launch.
pub struct LoadedKernel<'p> {
    abi: abi::KernelAbi<'p>,
    program: Program,
    payload: visa::PayloadMap,
}

impl LoadedKernel<'_> {
    pub fn args(&self) -> &[KernelArg] {
        &self.abi.args
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Runs the kernel over `global` work-items (1 to 3 dimensions) in work-groups of `local`
    /// (`None`: chosen as the driver would, see [`launch::default_local_size`]) with one value per
    /// argument, in order; returns every buffer argument's bytes after the run.
    pub fn launch(
        &self,
        global: &[u32],
        local: Option<&[u32]>,
        args: &[ArgValue],
    ) -> Result<LaunchOutput, CompiledError> {
        launch::run(self, global, local, args)
    }
}

/// The `.visaasm` file of kernel `kernel` at SIMD width `simd` in an IGC dump directory
/// (`IGC_DumpToCustomDir`): the file whose `.kernel` line names the kernel and whose name says
/// `_simd<N>_`. Returns its path and text.
pub fn find_visa_in_dump(
    dir: &std::path::Path,
    kernel: &str,
    simd: u32,
) -> Result<(std::path::PathBuf, String), CompiledError> {
    let io = |e: std::io::Error| CompiledError::Launch(format!("{}: {e}", dir.display()));
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "visaasm"))
        .collect();
    entries.sort();
    let marker = format!("_simd{simd}_");
    let wanted = format!(".kernel \"{kernel}\"");
    let mut kernels_seen = Vec::new();
    for path in entries {
        let text = std::fs::read_to_string(&path).map_err(io)?;
        let named = text.lines().take(8).any(|l| l.trim() == wanted);
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if named && file_name.contains(&marker) {
            return Ok((path, text));
        }
        if named {
            kernels_seen.push(file_name);
        }
    }
    Err(CompiledError::Launch(format!(
        "{}: no .visaasm of kernel '{kernel}' at SIMD {simd}{}",
        dir.display(),
        if kernels_seen.is_empty() {
            String::new()
        } else {
            format!(" (other widths: {})", kernels_seen.join(", "))
        }
    )))
}
