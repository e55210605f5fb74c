//! `visa`: a typed toolkit for Intel's vISA (the virtual ISA of the Intel Graphics Compiler).
//!
//! This root crate re-exports the user-facing API of the workspace crates:
//! - `codegen` (with the `codegen` feature): the markdown spec parser and the code/doc
//!   generators, for tools that read the opcode documents themselves;
//! - [`isa`]: the generated instruction tables, codecs and the assembly text parser/formatter;
//! - [`runtime`]: the CPU execution model;
//! - [`isa!`]: vISA kernels inline in Rust, checked at compile time, producing a [`Kernel`].
#![forbid(unsafe_code)]

mod kernel;

/// The guide to writing kernels, `docs/guide.md`: its Rust example runs as a doctest (its
/// assembly examples run in `cli/tests/guide.rs`).
#[cfg(doctest)]
#[doc = include_str!("../docs/guide.md")]
pub struct GuideDoctests;

pub use kernel::{
    ImmediateError, ImmediateValue, IntoImmediate, Kernel, KernelError, KernelText, LoadedKernel,
    Param, ParamKind,
};
#[cfg(feature = "codegen")]
pub use visa_codegen as codegen;
pub use visa_isa as isa;
/// Writes a vISA kernel inline in Rust, checked at compile time against the instruction tables
/// generated from `spec/`.
///
/// # Syntax
///
/// ```text
/// isa! {
///     kernel NAME<SIMD>(PARAM, ...) {
///         vISA assembly, one statement per line (or separated by `;`)
///     }
/// }
/// ```
///
/// - `SIMD` is the dispatch width: 1, 2, 4, 8, 16 or 32.
/// - A parameter is `name: vector<T>` (one element per lane), `name: vector<T, N>` (N components
///   per lane, as inline assembly binds a `uchar4` or `ushort2`: SIMD x N elements,
///   component-major, element `c*SIMD + lane`; bind it with
///   [`Launch::bind_vector_components`](runtime::Launch::bind_vector_components)),
///   `name: uniform<T>` (one value for every lane), `name: svm` (a per-lane 64-bit address into
///   shared virtual memory) or `name: surface` (a buffer bound as a surface). `T` is a vISA
///   element type: `ub b uw w ud d uq q hf f df bf`. Parameters are variables of the kernel,
///   bound by name at launch.
/// - The body is the assembly the `visa` assembler reads: `.decl`, labels, `{ }` scopes,
///   predicates, regions, immediates, every instruction of the tables. Rust comments are
///   allowed; line breaks separate statements. A scope brace may stand wherever a statement
///   begins or ends, also on an instruction's line (`... 0x8:d}`, `} {`).
/// - Inline assembly pasted from SYCL/OpenCL works unchanged: `%0`, `%1`, ... name the parameters
///   in order and `%[name]` by name (as the Intel compiler substitutes them). LLVM-style `$N`
///   follows the rule of assembly text (`visa::isa::text::bind_dollar_placeholders`): alone it
///   is the whole operand of parameter N (`name(0,0)<1>` as a destination, `name(0,0)<1;1,0>` as
///   a source, `<0;1,0>` when scalar, `name.0` in a raw field); followed by a region
///   (`$0(0,2)<1;1,0>`) or an offset (`$0.4`) it is the parameter's name.
/// - `{expr}:type` is an immediate computed by Rust. A literal (`{3}:ud`, `{-1.5}:f`) is
///   range-checked at compile time; any other expression is evaluated when the kernel value is
///   built and checked against the type by [`Kernel::load`].
///
/// Every mistake is a compile error at the offending token, several at once: unknown mnemonics
/// (with the nearest known one suggested), operand count and kinds, execution sizes and modifier
/// values the documents do not list, operand types, undeclared or duplicate names and labels,
/// region rules, declaration limits, alias offsets, unknown parameters. Questionable but legal
/// code (a predicate narrower than the execution size) is a warning.
///
/// The macro expands to a [`Kernel`] holding the checked program as data: its canonical assembly
/// text (one string literal, cheap to compile) and the source positions, parsed once per call site
/// the first time the kernel is used ([`Kernel::module`], [`Kernel::load`]). Diagnostics at run
/// time (immediates, loader and execution errors) name the lines of the macro input.
///
/// # Example: add one to every element of an array in shared virtual memory
///
/// ```
/// use visa::runtime::Svm;
///
/// let kernel = visa::isa! {
///     kernel add_one<16>(a: svm) {
///         .decl V v_type=G type=d num_elts=16 align=GRF
///         svm_gather.4.1 (M1, 16) a.0 V.0          // V[i] = *a[i]
///         add (M1, 16) V(0,0)<1> V(0,0)<1;1,0> 0x1:d
///         svm_scatter.4.1 (M1, 16) a.0 V.0         // *a[i] = V[i]
///     }
/// };
/// let mut svm = Svm::new();
/// let base = svm.alloc_from(&(0..64).collect::<Vec<i32>>());
/// kernel
///     .load()?
///     .launch()
///     .groups(4) // 4 threads of 16 lanes: 64 work-items
///     .svm(&svm)
///     .bind_svm_lanes("a", base, 4) // work-item i points at element i
///     .run()?;
/// assert_eq!(svm.read_vec::<i32>(base, 64)?, (1..65).collect::<Vec<i32>>());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Example: per-lane vectors, a predicate, a Rust immediate
///
/// ```
/// let limit: i32 = 10;
/// let kernel = visa::isa! {
///     kernel replace_odd<8>(x: vector<d>) {
///         .decl P v_type=P num_elts=8
///         .decl T v_type=G type=d num_elts=8 align=GRF
///         and (M1, 8) T(0,0)<1> x(0,0)<1;1,0> 0x1:d
///         cmp.ne (M1, 8) P T(0,0)<1;1,0> 0x0:d
///         (P) mov (M1, 8) x(0,0)<1> {limit}:d                 // odd lanes only
///     }
/// };
/// let x: Vec<i32> = vec![3, 15, 20, 21, 7, 9, 12, 13];
/// let result = kernel.load()?.launch().bind_vector("x", &x).capture("x").run()?;
/// assert_eq!(result.vector::<i32>("x")?, [10, 10, 20, 10, 10, 10, 12, 10]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # A compile error
///
/// ```compile_fail
/// let kernel = visa::isa! {
///     kernel typo<8>(x: vector<d>) {
///         ad (M1, 8) x(0,0)<1> x(0,0)<1;1,0> 0x1:d   // error: did you mean `add`?
///     }
/// };
/// ```
pub use visa_macros::isa;
pub use visa_runtime as runtime;
