//! `visa run FILE`: execute a kernel on the CPU runtime with parameters bound from the command
//! line, then print its outputs.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use visa_isa::ast::{ElemType, StmtKind};
use visa_runtime::{Buffer, Engine, Launch, LaunchError, LoadOptions, Program, Svm};

use crate::render::{Renderer, Severity};

#[derive(Debug, Args)]
#[command(after_help = "\
Bindings are NAME[:TYPE][*N]=VALUES. TYPE (ub b uw w ud d uq q f df) is required for names the \
kernel does not declare (inline-assembly placeholders such as %0); such names become kernel \
parameters of SIMD elements (SIMD x N with *N). A scalar is broadcast to every element in every \
thread; a list gives one value per work-item (groups x threads-per-group x simd values; with \
--work-items N, N values or that many).
*N binds N components per work-item, as inline assembly binds a uchar4 or ushort2: the list \
gives work-item 0's N values, then work-item 1's, ... (work-items x N values), and each thread's \
variable holds them component-major (element c*SIMD + lane); e.g. --arg 'V:uw*2=[1,2, 3,4, ...]'. \
The variable is printed after the run in the same order. --print NAME[:TYPE][*N] reads back the \
same way.
VALUES is a scalar (`3`, `-1.5`, `0x10`), a list `[1, 2, 3]` whose items may be ranges `a..b` \
(b excluded) or repeats `v;n`, or `@FILE` (numbers separated by spaces, commas or newlines).

Example:
  visa run examples/gather_add_scatter.visaasm --simd 16 --groups 4 --arg SCALE=5 \\
      --arg LO=-50 --arg HI=250 --svm 'A_PTR:d=[-32..32]' --svm 'B_PTR:d=[100..164]' \\
      --svm 'OUT_PTR:d=[0;64]'")]
pub struct RunArgs {
    /// The assembly file to run.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Channels per thread (dispatch SIMD width).
    #[arg(long, default_value_t = 16)]
    simd: u32,
    /// Number of thread groups (run in parallel).
    #[arg(long, default_value_t = 1)]
    groups: u32,
    /// Work-items of the launch: enough groups of threads-per-group x SIMD work-items to hold
    /// N (ceil(N / SIMD) threads with one thread per group); the lanes past N in the last
    /// thread start inactive. Per-work-item lists may then give N values (the rest are 0) and
    /// printed vectors show the first N.
    #[arg(long, value_name = "N", conflicts_with = "groups")]
    work_items: Option<u64>,
    /// The entry mask: one flag per work-item, 1 (active) or 0 (the lane starts with its
    /// execution-mask bit off and writes nothing), in the list syntax of --arg, e.g.
    /// `[1;12, 0;4]` or `@mask.txt`. With --work-items N it may give N flags.
    #[arg(long, value_name = "LIST")]
    active: Option<String>,
    /// Threads per group (they share the group's SLM).
    #[arg(long, default_value_t = 1)]
    threads_per_group: u32,
    /// Bytes per GRF register (32, or 64 for PVC and later).
    #[arg(long, default_value_t = 32)]
    grf: u32,
    /// Bind a kernel variable: NAME[:TYPE][*N]=VALUES (see below). Printed after the run when a
    /// list.
    #[arg(long = "arg", value_name = "NAME[:TYPE][*N]=VALUES")]
    args: Vec<String>,
    /// Allocate an SVM buffer holding VALUES and bind per-lane pointers to it (work-item i gets
    /// the address of element i): NAME:TYPE=VALUES. The buffer is printed after the run.
    #[arg(long = "svm", value_name = "NAME:TYPE=VALUES")]
    svm: Vec<String>,
    /// Bind a surface (T6, T7, ... or a declared surface name) to a buffer: NAME:TYPE=VALUES.
    /// The buffer is printed after the run.
    #[arg(long = "surface", value_name = "NAME:TYPE=VALUES")]
    surfaces: Vec<String>,
    /// Also print this variable (first SIMD elements of every thread; SIMD x N with *N, as
    /// N components per work-item): NAME[:TYPE][*N].
    #[arg(long = "print", value_name = "NAME[:TYPE][*N]")]
    print: Vec<String>,
    /// Shared local memory bytes per group (default: the SLMSize kernel attribute).
    #[arg(long)]
    slm: Option<usize>,
    /// Instruction budget of the launch.
    #[arg(long, default_value_t = visa_runtime::DEFAULT_FUEL)]
    fuel: u64,
    #[command(flatten)]
    color: crate::render::ColorArg,
    /// Print the outputs as one JSON object.
    #[arg(long)]
    json: bool,
    /// The engine: `jit` (compiled code; the default where the host is supported) or `interp`
    /// (the interpreter, which also traps on reads of never-written bytes). Default: the
    /// `VISA_ENGINE` environment variable, else `jit`.
    #[arg(long, value_parser = parse_engine)]
    engine: Option<Engine>,
}

fn parse_engine(name: &str) -> Result<Engine, String> {
    Engine::parse(name).ok_or_else(|| format!("unknown engine `{name}` (jit or interp)"))
}

/// A parsed `NAME[:TYPE][*N]=VALUES` (VALUES absent for `--print`).
struct Spec {
    name: String,
    ty: Option<ElemType>,
    /// N of `*N`: values per work-item (1 without it).
    components: u32,
    values: Option<Values>,
}

enum Values {
    Scalar(String),
    List(Vec<String>),
}

fn parse_spec(text: &str, with_values: bool) -> Result<Spec, String> {
    let (head, values) = match text.split_once('=') {
        Some((head, values)) => (head, Some(values)),
        None if !with_values => (text, None),
        None => return Err(format!("'{text}': expected NAME[:TYPE][*N]=VALUES")),
    };
    let (head, components) = match head.rsplit_once('*') {
        Some((head, count)) => {
            let n = count
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| {
                    format!("'{text}': the component count after '*' must be a whole number from 1 up, not '{count}'")
                })?;
            (head, n)
        }
        None => (head, 1),
    };
    let (name, ty) = match head.rsplit_once(':') {
        Some((name, ty)) => {
            let parsed = ElemType::from_name(ty.trim())
                .filter(|t| {
                    !matches!(
                        t,
                        ElemType::V | ElemType::Uv | ElemType::Vf | ElemType::Bool
                    )
                })
                .ok_or_else(|| format!("'{text}': unknown element type '{ty}'"))?;
            (name.trim(), Some(parsed))
        }
        None => (head.trim(), None),
    };
    let values = values.map(parse_values).transpose()?;
    Ok(Spec {
        name: name.to_string(),
        ty,
        components,
        values,
    })
}

fn parse_values(text: &str) -> Result<Values, String> {
    let text = text.trim();
    let list_text = if let Some(path) = text.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?
    } else if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        inner.to_string()
    } else {
        return Ok(Values::Scalar(text.to_string()));
    };
    let mut items = Vec::new();
    for item in list_text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
    {
        if let Some((a, b)) = item.split_once("..") {
            let (a, b) = (parse_int(a)?, parse_int(b)?);
            items.extend((a..b).map(|v| v.to_string()));
        } else if let Some((v, n)) = item.split_once(';') {
            let n = usize::try_from(parse_int(n)?)
                .map_err(|_| format!("bad repeat count in '{item}'"))?;
            items.extend(std::iter::repeat_n(v.to_string(), n));
        } else {
            items.push(item.to_string());
        }
    }
    Ok(Values::List(items))
}

fn parse_int(text: &str) -> Result<i128, String> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16),
        None => digits.parse::<i128>(),
    }
    .map_err(|_| format!("'{text}' is not an integer"))?;
    Ok(if negative { -magnitude } else { magnitude })
}

/// The bits of `text` as an element of type `ty`.
fn encode(text: &str, ty: ElemType) -> Result<u64, String> {
    match ty {
        ElemType::F => text
            .trim()
            .parse::<f32>()
            .map(|v| u64::from(v.to_bits()))
            .map_err(|_| format!("'{text}' is not a number")),
        ElemType::Df => text
            .trim()
            .parse::<f64>()
            .map(f64::to_bits)
            .map_err(|_| format!("'{text}' is not a number")),
        ElemType::Hf | ElemType::Bf => Err(format!(
            "type {ty} values are not supported on the command line"
        )),
        _ => {
            let value = parse_int(text)?;
            let bits = ty.size() * 8;
            let (min, max) = if ty.is_signed_int() {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            // Accept the unsigned spelling of a signed value's bits too (0xffffffff:d).
            if value < min || value > (1i128 << bits) - 1 || (!ty.is_signed_int() && value > max) {
                return Err(format!("{value} does not fit type {ty}"));
            }
            Ok(value as u64 & (u64::MAX >> (64 - bits)))
        }
    }
}

/// The element type and bytes of a `--svm` / `--surface` buffer (`flag` names it in errors).
fn buffer_contents(flag: &str, spec: &Spec) -> Result<(ElemType, Vec<u8>), String> {
    let ty = spec.ty.ok_or_else(|| {
        format!(
            "{flag} {}: give the element type, NAME:TYPE=VALUES",
            spec.name
        )
    })?;
    let items = match &spec.values {
        Some(Values::List(items)) => items.clone(),
        Some(Values::Scalar(v)) => vec![v.clone()],
        None => Vec::new(),
    };
    Ok((ty, encode_all(&items, ty)?))
}

fn encode_all(items: &[String], ty: ElemType) -> Result<Vec<u8>, String> {
    let size = ty.size() as usize;
    let mut bytes = Vec::with_capacity(items.len() * size);
    for item in items {
        bytes.extend_from_slice(&encode(item, ty)?.to_le_bytes()[..size]);
    }
    Ok(bytes)
}

/// One printed value.
fn decode(bytes: &[u8], ty: ElemType) -> serde_json::Value {
    let mut word = [0u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    let bits = u64::from_le_bytes(word);
    let size = ty.size() * 8;
    match ty {
        ElemType::F => serde_json::json!(f32::from_bits(bits as u32)),
        ElemType::Df => serde_json::json!(f64::from_bits(bits)),
        _ if ty.is_signed_int() => {
            let shift = 64 - size;
            serde_json::json!(((bits << shift) as i64) >> shift)
        }
        _ => serde_json::json!(bits),
    }
}

fn decode_all(bytes: &[u8], ty: ElemType) -> serde_json::Value {
    serde_json::Value::Array(
        bytes
            .chunks_exact(ty.size() as usize)
            .map(|c| decode(c, ty))
            .collect(),
    )
}

/// Declared top-level general variables of the module: name -> type.
fn declared_types(module: &visa_isa::ast::Module) -> Vec<(String, ElemType)> {
    module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl(d) => match &d.kind {
                visa_isa::ast::DeclKind::General { ty, .. } => Some((d.name.clone(), *ty)),
                visa_isa::ast::DeclKind::Address { .. } => Some((d.name.clone(), ElemType::Uw)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The N components of every work-item's `name`, work-item-major (the order `*N` binds them),
/// read from each thread's variable, where they are component-major (element `c*simd + lane`).
fn components_bytes(
    result: &visa_runtime::LaunchResult,
    name: &str,
    ty: ElemType,
    simd: u32,
    components: u32,
) -> Result<Vec<u8>, String> {
    let (size, simd, n) = (ty.size() as usize, simd as usize, components as usize);
    let mut out = Vec::with_capacity(result.threads() * simd * n * size);
    for thread in 0..result.threads() {
        let (bytes, defined) = result
            .thread_bytes(name, thread)
            .ok_or_else(|| format!("'{name}' was not read back"))?;
        if bytes.len() < simd * n * size {
            return Err(format!(
                "'{name}' has {} bytes, fewer than SIMD {simd} x {n} components of {ty}",
                bytes.len()
            ));
        }
        for lane in 0..simd {
            for c in 0..n {
                let at = (c * simd + lane) * size;
                if defined
                    .get(at..at + size)
                    .is_none_or(|d| d.iter().any(|d| !d))
                {
                    return Err(format!(
                        "'{name}' component {c} of lane {lane} in thread {thread} was never written"
                    ));
                }
                out.extend_from_slice(bytes.get(at..at + size).unwrap_or_default());
            }
        }
    }
    Ok(out)
}

/// Why `visa run` failed: bad input (exit 1; a message, or diagnostics already printed), the
/// kernel trapped (exit 3, printed), or Ctrl-C cancelled the launch (exit 130, printed).
enum Failure {
    Input(String),
    Printed,
    Trapped,
    Cancelled,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self::Input(message)
    }
}

/// Exit code of a launch that trapped.
const EXIT_TRAP: u8 = 3;

pub fn run(args: &RunArgs) -> ExitCode {
    let renderer = Renderer::new(args.color.color);
    match execute(args, &renderer) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(Failure::Input(message)) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
        Err(Failure::Printed) => ExitCode::FAILURE,
        Err(Failure::Trapped) => ExitCode::from(EXIT_TRAP),
        Err(Failure::Cancelled) => ExitCode::from(crate::progress::EXIT_CANCELLED),
    }
}

/// Prints a trap as `FILE:line:col: error: trap: ...` with the source line under it.
fn report_trap(renderer: &Renderer, file: &str, text: &str, trap: &visa_runtime::Trap) {
    let lane = trap.lane.map(|l| format!(", lane {l}")).unwrap_or_default();
    let header = format!(
        "{}: error: trap: {} (kernel '{}', group {}, thread {}{lane}; pc {}: `{}`)",
        trap.span, trap.kind, trap.kernel, trap.group, trap.thread, trap.pc, trap.instruction
    );
    renderer.diagnostic(file, text, trap.span, Severity::Error, &header);
}

fn execute(args: &RunArgs, renderer: &Renderer) -> Result<String, Failure> {
    let file = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("{file}: error: cannot read: {e}"))?;
    let module = match visa_isa::text::parse(&text) {
        Ok(module) => module,
        Err(errors) => {
            renderer.text_errors(&file, &text, &errors);
            return Err(Failure::Printed);
        }
    };
    let declared = declared_types(&module);
    let type_of = |spec: &Spec| -> Result<ElemType, String> {
        let declared_ty = declared
            .iter()
            .find(|(n, _)| *n == spec.name)
            .map(|(_, t)| *t);
        spec.ty.or(declared_ty).ok_or_else(|| {
            format!(
                "'{}' is not declared by the kernel: give its type, e.g. {}:d=...",
                spec.name, spec.name
            )
        })
    };
    let is_declared = |name: &str| declared.iter().any(|(n, _)| n == name);

    let arg_specs = args
        .args
        .iter()
        .map(|a| parse_spec(a, true))
        .collect::<Result<Vec<_>, _>>()?;
    let svm_specs = args
        .svm
        .iter()
        .map(|a| parse_spec(a, true))
        .collect::<Result<Vec<_>, _>>()?;
    let surface_specs = args
        .surfaces
        .iter()
        .map(|a| parse_spec(a, true))
        .collect::<Result<Vec<_>, _>>()?;
    let print_specs = args
        .print
        .iter()
        .map(|a| parse_spec(a, false))
        .collect::<Result<Vec<_>, _>>()?;

    let mut options = LoadOptions::default().grf_bytes(args.grf);
    if let Some(engine) = args.engine {
        options = options.engine(engine);
    }
    for spec in &arg_specs {
        if !is_declared(&spec.name) {
            let elements = args.simd.checked_mul(spec.components).ok_or_else(|| {
                format!(
                    "--arg {}: SIMD x {} components is too many elements",
                    spec.name, spec.components
                )
            })?;
            options = options.param(&spec.name, type_of(spec)?, elements);
        }
    }
    for spec in &svm_specs {
        if !is_declared(&spec.name) {
            options = options.param(&spec.name, ElemType::Uq, args.simd);
        }
    }
    let program = match Program::load(&module, &options) {
        Ok(program) => program,
        Err(e) => {
            let header = format!("{}: error: {}", e.span, e.message);
            renderer.diagnostic(&file, &text, e.span, Severity::Error, &header);
            return Err(Failure::Printed);
        }
    };

    let mut svm = Svm::new();
    let mut svm_buffers = Vec::new();
    for spec in &svm_specs {
        let (ty, bytes) = buffer_contents("--svm", spec)?;
        let base = svm
            .try_alloc(bytes.len())
            .map_err(|e| format!("--svm {}: {e}", spec.name))?;
        svm.write(base, &bytes)
            .map_err(|e| format!("--svm {}: {e:?}", spec.name))?;
        svm_buffers.push((spec.name.clone(), ty, base, bytes.len()));
    }
    let mut surfaces = Vec::new();
    for spec in &surface_specs {
        let (ty, bytes) = buffer_contents("--surface", spec)?;
        surfaces.push((spec.name.clone(), ty, Buffer::from_bytes(&bytes)));
    }

    let per_group = u64::from(args.simd) * u64::from(args.threads_per_group);
    let groups = match args.work_items {
        Some(0) => return Err("--work-items must be at least 1".to_string().into()),
        Some(n) if per_group == 0 => {
            return Err(
                format!("--work-items {n}: SIMD and threads per group must be at least 1").into(),
            );
        }
        Some(n) => u32::try_from(n.div_ceil(per_group))
            .map_err(|_| format!("--work-items {n}: more than 2^32 groups"))?,
        None => args.groups,
    };
    // Work-items of the launch, and those that exist (the rest of the last thread is inactive).
    let launched = usize::try_from(u64::from(groups) * per_group)
        .map_err(|_| "the launch has too many work-items".to_string())?;
    let existing = args
        .work_items
        .map_or(launched, |n| usize::try_from(n).unwrap_or(launched));
    // A list of one value (or `components` values) per existing work-item is padded with
    // `fill` to the whole launch.
    let pad = |mut items: Vec<String>, fill: &str, components: usize| {
        if existing < launched && items.len() == existing * components {
            items.resize(launched * components, fill.to_string());
        }
        items
    };
    let active = match &args.active {
        Some(text) => {
            let items = match parse_values(text)? {
                Values::List(items) => items,
                Values::Scalar(_) => {
                    return Err(
                        format!("--active {text}: expected a list, e.g. [1;12, 0;4]").into(),
                    );
                }
            };
            let mut flags = Vec::with_capacity(items.len());
            for item in pad(items, "0", 1) {
                flags.push(match parse_int(&item)? {
                    0 => false,
                    1 => true,
                    other => return Err(format!("--active: flag {other} is not 0 or 1").into()),
                });
            }
            Some(flags)
        }
        None if existing < launched => Some((0..launched).map(|i| i < existing).collect()),
        None => None,
    };
    let active = active.map(|mut flags| {
        // Work-items past --work-items never run, whatever --active says.
        for flag in flags.iter_mut().skip(existing) {
            *flag = false;
        }
        flags
    });

    let mut launch = Launch::new(&program)
        .simd(args.simd)
        .groups(groups)
        .threads_per_group(args.threads_per_group)
        .fuel(args.fuel)
        .svm(&svm);
    if let Some(slm) = args.slm {
        launch = launch.slm_size(slm);
    }
    if let Some(flags) = &active {
        launch = launch.active_lanes(flags);
    }
    let mut printed = Vec::new();
    for spec in &arg_specs {
        let ty = type_of(spec)?;
        match &spec.values {
            Some(Values::Scalar(v)) => {
                launch = launch.bind_scalar_bits(&spec.name, ty, encode(v, ty)?)
            }
            Some(Values::List(items)) => {
                let items = pad(items.clone(), "0", spec.components as usize);
                let bytes = encode_all(&items, ty)?;
                launch =
                    launch.bind_vector_components_bytes(&spec.name, ty, spec.components, bytes);
                printed.push((spec.name.clone(), ty, spec.components));
            }
            None => {}
        }
    }
    for (name, ty, base, _) in &svm_buffers {
        launch = launch.bind_svm_lanes(name, *base, u64::from(ty.size()));
    }
    for (name, _, buffer) in &surfaces {
        launch = launch.bind_surface(name, buffer);
    }
    for spec in &print_specs {
        launch = launch.capture(&spec.name);
        printed.push((spec.name.clone(), type_of(spec)?, spec.components));
    }
    let result = match crate::progress::run(launch, groups) {
        Ok(result) => result,
        Err(e @ LaunchError::Cancelled { .. }) => {
            eprintln!("{file}: {e}");
            return Err(Failure::Cancelled);
        }
        Err(LaunchError::Trap(trap)) => {
            report_trap(renderer, &file, &text, &trap);
            return Err(Failure::Trapped);
        }
        Err(e) => return Err(format!("{file}: error: {e}").into()),
    };

    let mut outputs: Vec<(String, serde_json::Value)> = Vec::new();
    for (name, ty, components) in &printed {
        let mut bytes = if *components == 1 {
            result
                .vector_bytes(name, *ty)
                .map_err(|e| format!("{file}: error: {e}"))?
        } else {
            components_bytes(&result, name, *ty, args.simd, *components)
                .map_err(|e| format!("{file}: error: {e}"))?
        };
        bytes.truncate(existing * *components as usize * ty.size() as usize);
        outputs.push((name.clone(), decode_all(&bytes, *ty)));
    }
    for (name, ty, base, len) in &svm_buffers {
        let mut bytes = vec![0; *len];
        svm.read(*base, &mut bytes)
            .map_err(|e| format!("--svm {name}: {e:?}"))?;
        outputs.push((name.clone(), decode_all(&bytes, *ty)));
    }
    for (name, ty, buffer) in &surfaces {
        outputs.push((name.clone(), decode_all(&buffer.to_bytes(), *ty)));
    }
    if args.json {
        let object: serde_json::Map<String, serde_json::Value> = outputs.into_iter().collect();
        return Ok(format!("{}\n", serde_json::Value::Object(object)));
    }
    let mut text = String::new();
    for (name, value) in outputs {
        let items: Vec<String> = value
            .as_array()
            .map(|a| a.iter().map(|v| v.to_string()).collect())
            .unwrap_or_default();
        text.push_str(&format!("{name} = [{}]\n", items.join(", ")));
    }
    Ok(text)
}
