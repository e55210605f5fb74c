//! The value `isa!` builds: a checked kernel with its parameters, ready for the runtime.

use crate::isa::ast::{ElemType, FieldValue, Module, Operand, StmtKind};
use crate::runtime::{Launch, LoadError, LoadOptions, Program};
use std::sync::OnceLock;

/// How a kernel parameter is bound at launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// One element per lane (a `vector<T>` parameter), or N per lane (`vector<T, N>`, see
    /// [`Param::components`]).
    Vector,
    /// One value shared by every lane (a `uniform<T>` parameter).
    Uniform,
    /// A per-lane 64-bit address into shared virtual memory (an `svm` parameter).
    Svm,
    /// A buffer bound as a surface (a `surface` parameter).
    Surface,
}

/// A kernel parameter: its name (also the vISA variable name), kind and element type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    pub ty: ElemType,
    /// Elements per lane: N of a `vector<T, N>` parameter, else 1. Such a variable has SIMD x N
    /// elements, component-major (element `c * SIMD + lane`); bind it with
    /// [`Launch::bind_vector_components`].
    pub components: u32,
}

impl Param {
    pub fn new(name: &str, kind: ParamKind, ty: ElemType) -> Self {
        Self {
            name: name.to_string(),
            kind,
            ty,
            components: 1,
        }
    }

    /// The parameter with `components` elements per lane (`vector<T, N>`).
    pub fn with_components(mut self, components: u32) -> Self {
        self.components = components;
        self
    }
}

/// A Rust value given as an immediate (`{expr}:ud`): checked against the type at launch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ImmediateValue {
    Int(i128),
    Float(f64),
}

/// Conversion of Rust numbers into immediates.
pub trait IntoImmediate {
    fn into_immediate(self) -> ImmediateValue;
}

macro_rules! int_immediate {
    ($($t:ty),*) => {$(
        impl IntoImmediate for $t {
            fn into_immediate(self) -> ImmediateValue {
                ImmediateValue::Int(i128::from(self))
            }
        }
    )*};
}
int_immediate!(u8, i8, u16, i16, u32, i32, u64, i64);

impl IntoImmediate for f32 {
    fn into_immediate(self) -> ImmediateValue {
        ImmediateValue::Float(f64::from(self))
    }
}

impl IntoImmediate for f64 {
    fn into_immediate(self) -> ImmediateValue {
        ImmediateValue::Float(self)
    }
}

impl IntoImmediate for usize {
    fn into_immediate(self) -> ImmediateValue {
        // usize is at most 64 bits on every supported target.
        ImmediateValue::Int(self as i128)
    }
}

/// A Rust immediate still to be written into the module.
#[derive(Debug, Clone, PartialEq)]
struct PendingImmediate {
    stmt: usize,
    field: usize,
    ty: ElemType,
    value: ImmediateValue,
}

/// An immediate given from Rust that does not fit its type.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("kernel `{kernel}`, line {line}: immediate {value:?} does not fit type {ty}")]
pub struct ImmediateError {
    pub kernel: String,
    pub line: u32,
    pub value: ImmediateValue,
    pub ty: ElemType,
}

/// The checked module of an `isa!` kernel as the macro stores it: its canonical assembly text
/// (statement `i` on line `i + 1`) and a source map putting back what that text does not keep of
/// the macro input; decoded once, on first use.
///
/// Each `isa!` call site holds one in a `static`, so the kernel is compiled as one string literal
/// and one byte string instead of a Rust expression per AST node.
#[doc(hidden)]
pub struct KernelText {
    text: &'static str,
    /// The positions of the macro input and what else the text does not keep
    /// (`visa_isa::text::source_map` documents the encoding).
    source_map: &'static [u8],
    decoded: OnceLock<Result<Module, String>>,
}

/// Two stored kernels are equal when they hold the same text and source map.
impl PartialEq for KernelText {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.source_map == other.source_map
    }
}

impl KernelText {
    pub const fn new(text: &'static str, source_map: &'static [u8]) -> Self {
        Self {
            text,
            source_map,
            decoded: OnceLock::new(),
        }
    }

    /// The module, decoded on the first call. The macro checked that the text and map give back
    /// the module it validated, so an error here means that the macro and this crate disagree
    /// (different versions of the assembler).
    fn module(&self) -> Result<&Module, &str> {
        self.decoded
            .get_or_init(|| decode(self.text, self.source_map))
            .as_ref()
            .map_err(String::as_str)
    }
}

impl std::fmt::Debug for KernelText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelText")
            .field("text", &self.text)
            .field("source_map", &self.source_map)
            .finish_non_exhaustive()
    }
}

/// Parses the canonical text and applies the source map (the inverse of `visa-macros`'s
/// `embed`).
fn decode(text: &str, source_map: &[u8]) -> Result<Module, String> {
    let mut module = crate::isa::text::parse(text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!(
            "the text stored by `isa!` does not parse (is `visa-macros` the same version as \
             `visa`?): {}",
            lines.join("; ")
        )
    })?;
    crate::isa::text::apply_source_map(&mut module, source_map).ok_or_else(|| {
        "the source map stored by `isa!` does not match its statements".to_string()
    })?;
    Ok(module)
}

/// A kernel written with `isa!`.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    name: String,
    simd: u32,
    params: Vec<Param>,
    /// The canonical assembly text `isa!` stored, decoded when the kernel is used.
    module: &'static KernelText,
    pending: Vec<PendingImmediate>,
}

impl Kernel {
    #[doc(hidden)]
    pub fn from_text(
        name: &str,
        simd: u32,
        params: Vec<Param>,
        module: &'static KernelText,
    ) -> Self {
        Self {
            name: name.to_string(),
            simd,
            params,
            module,
            pending: Vec::new(),
        }
    }

    /// What `isa!` expands to when the kernel has compile errors (it is never run: the build
    /// fails), so that editors keep type information.
    #[doc(hidden)]
    pub fn invalid() -> Self {
        static EMPTY: KernelText = KernelText::new("", &[]);
        Self::from_text("<invalid>", 1, Vec::new(), &EMPTY)
    }

    #[doc(hidden)]
    pub fn set_immediate(
        &mut self,
        stmt: usize,
        field: usize,
        ty: ElemType,
        value: ImmediateValue,
    ) {
        self.pending.push(PendingImmediate {
            stmt,
            field,
            ty,
            value,
        });
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The SIMD width the kernel was written for.
    pub fn simd(&self) -> u32 {
        self.simd
    }

    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The kernel's assembly, with the Rust immediates written in (checked against their types).
    pub fn module(&self) -> Result<Module, KernelError> {
        let mut module = self
            .module
            .module()
            .map_err(|message| KernelError::Text {
                kernel: self.name.clone(),
                message: message.to_string(),
            })?
            .clone();
        for p in &self.pending {
            let line = module.stmts.get(p.stmt).map_or(0, |s| s.span.line);
            let error = || ImmediateError {
                kernel: self.name.clone(),
                line,
                value: p.value,
                ty: p.ty,
            };
            let bits = immediate_bits(p.value, p.ty).ok_or_else(error)?;
            let slot = module
                .stmts
                .get_mut(p.stmt)
                .and_then(|s| match &mut s.kind {
                    StmtKind::Instr(i) => i.fields.get_mut(p.field),
                    _ => None,
                });
            if let Some(FieldValue::Operand(Operand::Immediate(imm))) = slot {
                imm.bits = bits;
            } else {
                return Err(error().into());
            }
        }
        Ok(module)
    }
}

/// Why a kernel could not be loaded into the runtime.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KernelError {
    /// A Rust immediate does not fit its type.
    #[error(transparent)]
    Immediate(#[from] ImmediateError),
    /// The assembly text stored by `isa!` could not be read back (only possible when the
    /// `visa-macros` and `visa` crates come from different versions).
    #[error("kernel `{kernel}`: {message}")]
    Text {
        /// The kernel's name.
        kernel: String,
        /// What went wrong.
        message: String,
    },
    /// The runtime rejected the kernel (e.g. an instruction it does not execute).
    #[error("kernel `{kernel}`: {error}")]
    Load {
        /// The kernel's name.
        kernel: String,
        /// What the loader reported.
        error: LoadError,
    },
}

/// A kernel loaded into the runtime, ready to launch at its SIMD width.
#[derive(Debug)]
pub struct LoadedKernel {
    program: Program,
    simd: u32,
}

impl LoadedKernel {
    /// A launch of the kernel at the SIMD width it was written for; bind its parameters by
    /// name (`bind_vector`, `bind_vector_components` for `vector<T, N>`, `bind_scalar`,
    /// `bind_svm_lanes`, `bind_surface`), then `run`.
    pub fn launch(&self) -> Launch<'_> {
        Launch::new(&self.program).simd(self.simd)
    }

    /// The decoded program.
    pub fn program(&self) -> &Program {
        &self.program
    }
}

impl Kernel {
    /// Loads the kernel into the runtime (decoding every instruction once), checking the Rust
    /// immediates against their types.
    pub fn load(&self) -> Result<LoadedKernel, KernelError> {
        self.load_with(&LoadOptions::default())
    }

    /// [`Kernel::load`] with explicit options (e.g. a 64-byte GRF).
    pub fn load_with(&self, options: &LoadOptions) -> Result<LoadedKernel, KernelError> {
        let module = self.module()?;
        let program = Program::load(&module, options).map_err(|error| KernelError::Load {
            kernel: self.name.clone(),
            error,
        })?;
        Ok(LoadedKernel {
            program,
            simd: self.simd,
        })
    }
}

/// The stored bits of `value` as an immediate of type `ty`, if it fits.
fn immediate_bits(value: ImmediateValue, ty: ElemType) -> Option<u64> {
    match (value, ty) {
        (ImmediateValue::Float(v), ElemType::F) => Some(u64::from((v as f32).to_bits())),
        (ImmediateValue::Float(v), ElemType::Df) => Some(v.to_bits()),
        (ImmediateValue::Int(v), ElemType::F) => Some(u64::from((v as f32).to_bits())),
        (ImmediateValue::Int(v), ElemType::Df) => Some((v as f64).to_bits()),
        (ImmediateValue::Float(_), _) => None,
        (ImmediateValue::Int(v), t) => {
            let fits = match t {
                ElemType::Ub => u8::try_from(v).is_ok(),
                ElemType::B => i8::try_from(v).is_ok(),
                ElemType::Uw => u16::try_from(v).is_ok(),
                ElemType::W => i16::try_from(v).is_ok(),
                ElemType::Ud => u32::try_from(v).is_ok(),
                ElemType::D => i32::try_from(v).is_ok(),
                ElemType::Uq => u64::try_from(v).is_ok(),
                ElemType::Q => i64::try_from(v).is_ok(),
                _ => false,
            };
            // Two's complement, sign-extended into 64 bits.
            fits.then_some(v as i64 as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immediate_bits_checks_ranges() {
        assert_eq!(
            immediate_bits(ImmediateValue::Int(255), ElemType::Ub),
            Some(255)
        );
        assert_eq!(immediate_bits(ImmediateValue::Int(256), ElemType::Ub), None);
        assert_eq!(
            immediate_bits(ImmediateValue::Int(-1), ElemType::W),
            Some(u64::MAX)
        );
        assert_eq!(immediate_bits(ImmediateValue::Int(-1), ElemType::Ud), None);
        assert_eq!(
            immediate_bits(ImmediateValue::Float(1.0), ElemType::F),
            Some(0x3f80_0000)
        );
        assert_eq!(
            immediate_bits(ImmediateValue::Float(1.0), ElemType::D),
            None
        );
    }
}
