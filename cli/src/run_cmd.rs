//! `visa run FILE`: execute a kernel on the CPU runtime with parameters bound from the command
//! line, then print its outputs.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use clap::Args;
use visa_isa::ast::{ElemType, StmtKind};
use visa_runtime::{
    Buffer, Engine, JitTier, Launch, LaunchError, LoadErrorKind, LoadOptions, Program, Svm,
};

use crate::render::{Renderer, Report, Severity};

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
VALUES is a scalar (`3`, `-1.5`, `0x10`, `inf`, `nan`), a list `[1, 2, 3]` whose items may be \
ranges `a..b` (b excluded) or repeats `v;n`, or `@FILE`: a NumPy `.npy` array, a JSON array \
(numbers and the strings \"inf\", \"-inf\", \"nan\", as --json prints them) or numbers separated by spaces, commas or \
newlines.
Floats (f, df) print as the shortest decimal that reads back as the same value of their type \
(0.1 for f, not 0.10000000149011612); infinities and NaN print as inf, -inf and NaN, and in \
--json as the strings \"inf\", \"-inf\" and \"nan\" (JSON numbers cannot hold them); finite \
values stay JSON numbers. A value outside its type's range (1e40:f, 300:ub) is an error.

Example:
  visa run examples/gather_add_scatter.visaasm --simd 16 --groups 4 --arg SCALE=5 \\
      --arg LO=-50 --arg HI=250 --svm 'A_PTR:d=[-32..32]' --svm 'B_PTR:d=[100..164]' \\
      --svm 'OUT_PTR:d=[0;64]'")]
pub struct RunArgs {
    /// The assembly file to run (`-`: standard input).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Channels per thread (dispatch SIMD width): 1, 2, 4, 8, 16 or 32.
    #[arg(long, default_value_t = 16, value_parser = parse_simd)]
    simd: u32,
    /// Number of thread groups (run in parallel), at least 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
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
    /// Threads per group (they share the group's SLM), at least 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    threads_per_group: u32,
    /// Bytes per GRF register (32, or 64 for PVC and later).
    #[arg(long, default_value_t = 32)]
    grf: u32,
    /// Bind a kernel variable: NAME[:TYPE][*N]=VALUES (see below). Printed after the run when a
    /// list.
    #[arg(long = "arg", value_name = "NAME[:TYPE][*N]=VALUES")]
    args: Vec<String>,
    /// Allocate an SVM buffer holding VALUES and bind per-lane pointers to it (work-item i gets
    /// the address of element i, so it needs a value per work-item): NAME:TYPE=VALUES. The
    /// buffer is printed after the run.
    #[arg(long = "svm", value_name = "NAME:TYPE=VALUES")]
    svm: Vec<String>,
    /// Bind a surface (T6, T7, ... or a declared surface name) to a buffer: NAME:TYPE=VALUES.
    /// The buffer is printed after the run. A surface is as long as its values: reads beyond
    /// it give 0 and writes beyond it are dropped (the hardware's bounds check), so a short
    /// surface is valid input, not an error as a short --svm buffer is.
    #[arg(long = "surface", value_name = "NAME:TYPE=VALUES")]
    surfaces: Vec<String>,
    /// Also print this variable (first SIMD elements of every thread; SIMD x N with *N, as
    /// N components per work-item): NAME[:TYPE][*N].
    #[arg(long = "print", value_name = "NAME[:TYPE][*N]")]
    print: Vec<String>,
    /// Shared local memory bytes per group (default: the SLMSize kernel attribute), at most
    /// 1 MiB.
    #[arg(long)]
    slm: Option<usize>,
    /// The most memory the launch may take for SLM, register files and the variables read
    /// back, in bytes; checked before anything is allocated.
    #[arg(long, value_name = "BYTES", default_value_t = visa_runtime::DEFAULT_MAX_MEMORY)]
    max_memory: u64,
    /// Instruction budget of the launch.
    #[arg(long, default_value_t = visa_runtime::DEFAULT_FUEL)]
    fuel: u64,
    #[command(flatten)]
    color: crate::render::ColorArg,
    /// Print the outputs as one JSON object.
    #[arg(long)]
    json: bool,
    /// Also print the bound lists and buffers the run left as they were (by default only
    /// --print variables and the --arg lists, --svm and --surface buffers the run changed are
    /// printed).
    #[arg(long)]
    print_inputs: bool,
    /// Write the outputs to DIR/outputs.json (one JSON object, as --json prints it) and each to
    /// DIR/NAME.npy (a NumPy array of its type) instead of standard output, which then says
    /// where they went.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The engine: `jit` (compiled code) or `interp` (the interpreter, which also traps on
    /// reads of never-written bytes). Default: the `VISA_ENGINE` environment variable, else
    /// compiled code where the host is supported and the launch is large enough to repay
    /// compiling (a launch of fewer than 1,024 threads runs on the interpreter).
    #[arg(long, value_parser = parse_engine)]
    engine: Option<Engine>,
    /// After the launch, print to standard error which instructions the compiled tier runs as
    /// native code and which through the interpreter's handlers.
    #[arg(long)]
    jit_report: bool,
}

/// What `--jit-report` prints: how the compiled tier treats `program`, or why it did not run.
pub(crate) fn jit_report_text(program: &Program) -> String {
    if program.engine() == Engine::Interpreter {
        return "jit report: the interpreter ran every instruction (--engine interp)\n".into();
    }
    let ran = if program.has_compiled_code() {
        "compiled code ran the launch"
    } else {
        "the launch was too small to repay compiling and ran on the interpreter; compiled, it would be"
    };
    format!("jit report: {ran}:\n{}", program.jit_report())
}

fn parse_simd(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|n| visa_runtime::SIMD_WIDTHS.contains(n))
        .ok_or_else(|| {
            format!(
                "the SIMD width must be {}",
                visa_runtime::simd_widths_text()
            )
        })
}

/// Most values a list (`[...]`, `@FILE`) may expand to: 16 Mi.
const MAX_LIST_VALUES: usize = 1 << 24;

/// The engine and code generator of `visa run` and `visa launch`: the engine named, else
/// `VISA_ENGINE`'s; with neither, compiled code only for launches large enough to repay
/// compiling, and only of the blocks that run ([`JitTier::Lazy`]).
pub(crate) fn engine_choice(named: Option<Engine>) -> (Engine, JitTier) {
    match named {
        None if std::env::var_os("VISA_ENGINE").is_none() => (Engine::from_env(), JitTier::Lazy),
        named => (named.unwrap_or_else(Engine::from_env), JitTier::default()),
    }
}

pub(crate) fn parse_engine(name: &str) -> Result<Engine, String> {
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

pub(crate) enum Values {
    Scalar(String),
    List(Vec<Item>),
}

/// One value of a list: as written (a repeat `v;n` shares its text), an integer of a range
/// `a..b`, or an element of a NumPy array, kept exactly (a NaN keeps its payload).
#[derive(Debug, Clone)]
pub(crate) enum Item {
    Text(Rc<str>),
    Int(i128),
    F32(f32),
    F64(f64),
}

impl Item {
    fn text(text: &str) -> Item {
        Item::Text(text.into())
    }

    /// The item as an integer (`--active` flags).
    fn int(&self) -> Result<i128, String> {
        match self {
            Item::Text(text) => parse_int(text),
            Item::Int(value) => Ok(*value),
            Item::F32(v) => parse_int(&v.to_string()),
            Item::F64(v) => parse_int(&v.to_string()),
        }
    }

    /// The bits of the item as an element of type `ty` (as [`encode`] of its text would give,
    /// but for a NumPy float of the element's own type, whose bits are kept).
    fn encode(&self, ty: ElemType) -> Result<u64, String> {
        match (self, ty) {
            (Item::Text(text), _) => encode(text, ty),
            // (An i128 rounds to F or DF as its decimal text would parse: to nearest even.)
            (Item::Int(i), ElemType::F) => Ok(u64::from((*i as f32).to_bits())),
            (Item::Int(i), ElemType::Df) => Ok((*i as f64).to_bits()),
            (Item::Int(i), _) if !ty.is_float() => encode_int(*i, ty),
            (Item::Int(i), _) => encode(&i.to_string(), ty),
            (Item::F32(v), ElemType::F) => Ok(u64::from(v.to_bits())),
            (Item::F32(v), ElemType::Df) => Ok(f64::from(*v).to_bits()),
            (Item::F64(v), ElemType::Df) => Ok(v.to_bits()),
            (Item::F32(v), _) => encode(&v.to_string(), ty),
            (Item::F64(v), _) => encode(&v.to_string(), ty),
        }
    }
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

pub(crate) fn parse_values(text: &str) -> Result<Values, String> {
    let text = text.trim();
    let list_text = if let Some(path) = text.strip_prefix('@') {
        if path.ends_with(".npy") {
            return read_npy(path).map(Values::List);
        }
        let contents =
            std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
        if let Ok(array) = serde_json::from_str::<Vec<serde_json::Value>>(&contents) {
            return json_items(path, array).map(Values::List);
        }
        match contents
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
        {
            Some(inner) => inner.to_string(),
            None => contents,
        }
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
        let room = MAX_LIST_VALUES - items.len();
        let too_long = || format!("'{item}': a list holds at most {MAX_LIST_VALUES} values");
        if let Some((a, b)) = item.split_once("..") {
            let (a, b) = (parse_int(a)?, parse_int(b)?);
            if b.saturating_sub(a) > room as i128 {
                return Err(too_long());
            }
            items.extend((a..b).map(Item::Int));
        } else if let Some((v, n)) = item.split_once(';') {
            let n = usize::try_from(parse_int(n)?)
                .map_err(|_| format!("bad repeat count in '{item}'"))?;
            if n > room {
                return Err(too_long());
            }
            items.extend(std::iter::repeat_n(Item::text(v), n));
        } else {
            if room == 0 {
                return Err(too_long());
            }
            items.push(Item::text(item));
        }
    }
    Ok(Values::List(items))
}

/// The items of a JSON array file: numbers, and the strings "inf", "-inf" and "nan".
fn json_items(path: &str, array: Vec<serde_json::Value>) -> Result<Vec<Item>, String> {
    if array.len() > MAX_LIST_VALUES {
        return Err(format!(
            "{path}: a list holds at most {MAX_LIST_VALUES} values"
        ));
    }
    array
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            serde_json::Value::Number(n) => Ok(Item::text(&n.to_string())),
            serde_json::Value::String(s) if NON_FINITE.contains(&s.as_str()) => Ok(Item::text(&s)),
            other => Err(format!(
                "{path}: item {i} is {other}, not a number or \"inf\", \"-inf\", \"nan\""
            )),
        })
        .collect()
}

/// Writes elements of type `ty` as a one-dimensional NumPy array (the writer `visa launch`
/// uses, `visa_runtime::compiled::npy`).
fn write_npy(path: &Path, bytes: &[u8], ty: ElemType) -> std::io::Result<()> {
    use visa_runtime::compiled::npy::{self, NpyArray, NpyType};
    let ty = match ty {
        ElemType::Ub => NpyType::U8,
        ElemType::B => NpyType::I8,
        ElemType::Uw => NpyType::U16,
        ElemType::W => NpyType::I16,
        ElemType::Ud => NpyType::U32,
        ElemType::D => NpyType::I32,
        ElemType::Uq => NpyType::U64,
        ElemType::Q => NpyType::I64,
        ElemType::Hf => NpyType::F16,
        ElemType::F => NpyType::F32,
        ElemType::Df => NpyType::F64,
        other => {
            return Err(std::io::Error::other(format!(
                "type {other} has no .npy form here"
            )));
        }
    };
    let array = NpyArray {
        ty,
        bytes: bytes.to_vec(),
    };
    npy::write(path, &array)
}

/// The values of a NumPy array file (any shape, read in storage order) as list items.
fn read_npy(path: &str) -> Result<Vec<Item>, String> {
    type Reader = fn(npyz::NpyFile<&[u8]>) -> Option<Vec<Item>>;
    fn items<T: npyz::Deserialize + Copy>(
        file: npyz::NpyFile<&[u8]>,
        item: fn(T) -> Item,
    ) -> Option<Vec<Item>> {
        let values: Vec<T> = file.into_vec().ok()?;
        Some(values.into_iter().map(item).collect())
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    let open =
        || npyz::NpyFile::new(&bytes[..]).map_err(|e| format!("{path}: not a .npy file: {e}"));
    if open()?.len() > MAX_LIST_VALUES as u64 {
        return Err(format!(
            "{path}: a list holds at most {MAX_LIST_VALUES} values"
        ));
    }
    let readers: [Reader; 10] = [
        |f| items::<f32>(f, Item::F32),
        |f| items::<f64>(f, Item::F64),
        |f| items::<i8>(f, |v| Item::Int(v.into())),
        |f| items::<u8>(f, |v| Item::Int(v.into())),
        |f| items::<i16>(f, |v| Item::Int(v.into())),
        |f| items::<u16>(f, |v| Item::Int(v.into())),
        |f| items::<i32>(f, |v| Item::Int(v.into())),
        |f| items::<u32>(f, |v| Item::Int(v.into())),
        |f| items::<i64>(f, |v| Item::Int(v.into())),
        |f| items::<u64>(f, |v| Item::Int(v.into())),
    ];
    for read in readers {
        if let Some(items) = read(open()?) {
            return Ok(items);
        }
    }
    Err(format!(
        "{path}: dtype {} is not a NumPy integer or float array",
        open()?.dtype().descr()
    ))
}

/// How infinities and NaN are written in JSON (and read back).
const NON_FINITE: [&str; 3] = ["inf", "-inf", "nan"];

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
        ElemType::F => {
            let value = text
                .trim()
                .parse::<f32>()
                .map_err(|_| format!("'{text}' is not a number"))?;
            finite_unless_spelled(text, value.is_infinite(), ty, || format!("{:e}", f32::MAX))?;
            Ok(u64::from(value.to_bits()))
        }
        ElemType::Df => {
            let value = text
                .trim()
                .parse::<f64>()
                .map_err(|_| format!("'{text}' is not a number"))?;
            finite_unless_spelled(text, value.is_infinite(), ty, || format!("{:e}", f64::MAX))?;
            Ok(value.to_bits())
        }
        ElemType::Hf | ElemType::Bf => Err(format!(
            "type {ty} values are not supported on the command line"
        )),
        _ => encode_int(parse_int(text)?, ty),
    }
}

/// The bits of the integer `value` as an element of the integer type `ty`.
fn encode_int(value: i128, ty: ElemType) -> Result<u64, String> {
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

/// A float that parsed as infinite must have been written as one (`inf`, `-infinity`): a finite
/// number out of range (`1e40` for f) is an error, not a silent infinity. (Checked per element of
/// lists of any length: nothing is formatted or allocated unless the value is infinite.)
fn finite_unless_spelled(
    text: &str,
    infinite: bool,
    ty: ElemType,
    max: fn() -> String,
) -> Result<(), String> {
    if !infinite {
        return Ok(());
    }
    let digits = text.trim().trim_start_matches(['+', '-']);
    let spelled = digits
        .get(..3)
        .is_some_and(|start| start.eq_ignore_ascii_case("inf"));
    if !spelled {
        return Err(format!(
            "'{text}' is outside the range of type {ty} (largest {}); write inf for an infinity",
            max()
        ));
    }
    Ok(())
}

/// The element type and bytes of a `--svm` / `--surface` buffer (`flag` names it in errors).
fn buffer_contents(flag: &str, spec: &Spec) -> Result<(ElemType, Vec<u8>), String> {
    let ty = spec.ty.ok_or_else(|| {
        format!(
            "{flag} {}: give the element type, NAME:TYPE=VALUES",
            spec.name
        )
    })?;
    let scalar;
    let items: &[Item] = match &spec.values {
        Some(Values::List(items)) => items,
        Some(Values::Scalar(v)) => {
            scalar = [Item::text(v)];
            &scalar
        }
        None => &[],
    };
    let bytes = encode_all(items, ty).map_err(|e| format!("{flag} {}: {e}", spec.name))?;
    Ok((ty, bytes))
}

pub(crate) fn encode_all(items: &[Item], ty: ElemType) -> Result<Vec<u8>, String> {
    let size = ty.size() as usize;
    let mut bytes = Vec::with_capacity(items.len() * size);
    let mut last: Option<(&Rc<str>, u64)> = None;
    for item in items {
        let bits = match (item, last) {
            // (A repeat shares its text: encoded once.)
            (Item::Text(text), Some((previous, bits))) if Rc::ptr_eq(text, previous) => bits,
            _ => item.encode(ty)?,
        };
        if let Item::Text(text) = item {
            last = Some((text, bits));
        }
        bytes.extend_from_slice(&bits.to_le_bytes()[..size]);
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
        ElemType::F => {
            let value = f32::from_bits(bits as u32);
            // The shortest decimal that reads back as this f32, held as the f64 it spells
            // (which prints as the same decimal).
            let shortest = value.to_string().parse().unwrap_or(f64::from(value));
            float_json(shortest)
        }
        ElemType::Df => float_json(f64::from_bits(bits)),
        _ if ty.is_signed_int() => {
            let shift = 64 - size;
            serde_json::json!(((bits << shift) as i64) >> shift)
        }
        _ => serde_json::json!(bits),
    }
}

/// A float as JSON: a number when finite, else "inf", "-inf" or "nan".
fn float_json(value: f64) -> serde_json::Value {
    match serde_json::Number::from_f64(value) {
        Some(number) => serde_json::Value::Number(number),
        None if value.is_nan() => serde_json::Value::String(NON_FINITE[2].to_string()),
        None if value > 0.0 => serde_json::Value::String(NON_FINITE[0].to_string()),
        None => serde_json::Value::String(NON_FINITE[1].to_string()),
    }
}

/// Printed values as text, `", "` between them: numbers as JSON writes them, `inf`, `-inf` and
/// `NaN` (written into one string: an output buffer may hold millions).
pub(crate) fn list_text(values: &[serde_json::Value]) -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        match value {
            serde_json::Value::String(s) if s == NON_FINITE[2] => text.push_str("NaN"),
            serde_json::Value::String(s) => text.push_str(s),
            // (Writing into a String cannot fail.)
            other => {
                let _ = write!(text, "{other}");
            }
        }
    }
    text
}

pub(crate) fn decode_all(bytes: &[u8], ty: ElemType) -> serde_json::Value {
    serde_json::Value::Array(
        bytes
            .chunks_exact(ty.size() as usize)
            .map(|c| decode(c, ty))
            .collect(),
    )
}

/// A launch error as printed: launch parameters name their option.
fn launch_error(file: &str, error: &visa_runtime::LaunchError) -> String {
    use visa_runtime::LaunchError;
    match error {
        LaunchError::Grid { parameter, message } => {
            let option = match *parameter {
                "slm_size" => "slm".to_string(),
                other => other.replace('_', "-"),
            };
            format!("--{option}: {message}")
        }
        LaunchError::MemoryLimit { .. } => format!("--max-memory: {error}"),
        _ => format!("{file}: error: {error}"),
    }
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
            // Option errors start with the option's name.
            if message.starts_with("--") {
                eprintln!("error: {message}");
            } else {
                eprintln!("{message}");
            }
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
    let hint = if matches!(trap.kind, visa_runtime::TrapKind::OutOfFuel(_)) {
        " (raise the budget with --fuel N)"
    } else {
        ""
    };
    let message = format!(
        "trap: {}{hint} (kernel '{}', group {}, thread {}{lane}; pc {}: `{}`)",
        trap.kind, trap.kernel, trap.group, trap.thread, trap.pc, trap.instruction
    );
    renderer.report(
        file,
        text,
        &Report::new(trap.span, Severity::Error, "trap", message),
    );
}

fn execute(args: &RunArgs, renderer: &Renderer) -> Result<String, Failure> {
    let from_stdin = args.file.as_os_str() == "-";
    let file = if from_stdin {
        "<stdin>".to_string()
    } else {
        args.file.display().to_string()
    };
    let text = if from_stdin {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("{file}: error: cannot read: {e}"))?
    } else {
        crate::object_cmd::text_of(&args.file)?
    };
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
                "{}: not declared by the kernel: give its type, e.g. {}:d=...",
                spec.name, spec.name
            )
        })
    };
    let is_declared = |name: &str| declared.iter().any(|(n, _)| n == name);

    let arg_specs = args
        .args
        .iter()
        .map(|a| parse_spec(a, true).map_err(|e| format!("--arg {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let svm_specs = args
        .svm
        .iter()
        .map(|a| parse_spec(a, true).map_err(|e| format!("--svm {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let surface_specs = args
        .surfaces
        .iter()
        .map(|a| parse_spec(a, true).map_err(|e| format!("--surface {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let print_specs = args
        .print
        .iter()
        .map(|a| parse_spec(a, false).map_err(|e| format!("--print {e}")))
        .collect::<Result<Vec<_>, _>>()?;

    // A name is bound once, by one option.
    let mut bound: Vec<(&str, &str)> = Vec::new();
    for (flag, specs) in [
        ("--arg", &arg_specs),
        ("--svm", &svm_specs),
        ("--surface", &surface_specs),
    ] {
        for spec in specs {
            if let Some((_, first)) = bound.iter().find(|(name, _)| *name == spec.name) {
                return Err(format!(
                    "{flag} {}: bound twice (also by {first} {})",
                    spec.name, spec.name
                )
                .into());
            }
            bound.push((&spec.name, flag));
        }
    }
    // A type given for a declared variable reinterprets its bits: say so when it differs.
    for (flag, specs) in [("--arg", &arg_specs), ("--print", &print_specs)] {
        for spec in specs {
            let declared_ty = declared.iter().find(|(n, _)| *n == spec.name);
            if let (Some(given), Some((_, declared_ty))) = (spec.ty, declared_ty)
                && given != *declared_ty
            {
                eprintln!(
                    "warning: {flag} {}: type {given} differs from the variable's declared type \
                     {declared_ty}; its bytes are read as {given}",
                    spec.name
                );
            }
        }
    }

    let (engine, tier) = engine_choice(args.engine);
    let mut options = LoadOptions::default()
        .grf_bytes(args.grf)
        .engine(engine)
        .jit_tier(tier);
    for spec in &arg_specs {
        if !is_declared(&spec.name) {
            let elements = args.simd.checked_mul(spec.components).ok_or_else(|| {
                format!(
                    "--arg {}: SIMD x {} components is too many elements",
                    spec.name, spec.components
                )
            })?;
            let ty = type_of(spec).map_err(|e| format!("--arg {e}"))?;
            options = options.param(&spec.name, ty, elements);
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
            let kind = match e.kind {
                LoadErrorKind::Rule | LoadErrorKind::Syntax => "rule",
                _ => "runtime",
            };
            let mut report = Report::new(e.span, Severity::Error, kind, e.message);
            report.suggestion = e.suggestion;
            renderer.report(&file, &text, &report);
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
        svm_buffers.push((spec.name.clone(), ty, base, bytes));
    }
    let mut surfaces = Vec::new();
    for spec in &surface_specs {
        let (ty, bytes) = buffer_contents("--surface", spec)?;
        surfaces.push((spec.name.clone(), ty, Buffer::from_bytes(&bytes), bytes));
    }

    let per_group = u64::from(args.simd) * u64::from(args.threads_per_group);
    let groups = match args.work_items {
        Some(0) => return Err("--work-items: must be at least 1".to_string().into()),
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
    // Work-item i's pointer addresses element i of its --svm buffer: each must exist.
    for (name, ty, _, bytes) in &svm_buffers {
        let values = bytes.len() / ty.size() as usize;
        if values < existing {
            return Err(format!(
                "--svm {name}: {values} values for {existing} work-items (work-item i's pointer \
                 addresses element i)"
            )
            .into());
        }
    }
    // A list of one value (or `components` values) per existing work-item is padded with
    // `fill` to the whole launch.
    let pad = |mut items: Vec<Item>, fill: i128, components: usize| {
        if existing < launched && items.len() == existing * components {
            items.resize(launched * components, Item::Int(fill));
        }
        items
    };
    let active = match &args.active {
        Some(text) => {
            let items = match parse_values(text).map_err(|e| format!("--active: {e}"))? {
                Values::List(items) => items,
                Values::Scalar(_) => {
                    return Err(
                        format!("--active {text}: expected a list, e.g. [1;12, 0;4]").into(),
                    );
                }
            };
            let mut flags = Vec::with_capacity(items.len());
            for item in pad(items, 0, 1) {
                flags.push(match item.int().map_err(|e| format!("--active: {e}"))? {
                    0 => false,
                    1 => true,
                    other => {
                        return Err(format!("--active: flag {other} is not 0 or 1").into());
                    }
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
        .max_memory(args.max_memory)
        .svm(&svm);
    if let Some(slm) = args.slm {
        launch = launch.slm_size(slm);
    }
    if let Some(flags) = &active {
        launch = launch.active_lanes(flags);
    }
    let mut printed = Vec::new();
    for spec in &arg_specs {
        let ty = type_of(spec).map_err(|e| format!("--arg {e}"))?;
        let in_option = |e: String| format!("--arg {}: {e}", spec.name);
        match &spec.values {
            Some(Values::Scalar(v)) => {
                launch = launch.bind_scalar_bits(&spec.name, ty, encode(v, ty).map_err(in_option)?)
            }
            Some(Values::List(items)) => {
                let items = pad(items.clone(), 0, spec.components as usize);
                let bytes = encode_all(&items, ty).map_err(in_option)?;
                let input = bytes.clone();
                launch =
                    launch.bind_vector_components_bytes(&spec.name, ty, spec.components, bytes);
                printed.push((spec.name.clone(), ty, spec.components, Some(input)));
            }
            None => {}
        }
    }
    for (name, ty, base, _) in &svm_buffers {
        launch = launch.bind_svm_lanes(name, *base, u64::from(ty.size()));
    }
    for (name, _, buffer, _) in &surfaces {
        launch = launch.bind_surface(name, buffer);
    }
    for spec in &print_specs {
        launch = launch.capture(&spec.name);
        // A bound list named again by --print is shown once, whether the run changed it or not.
        if let Some(bound) = printed.iter_mut().find(|(name, ..)| *name == spec.name) {
            bound.3 = None;
            continue;
        }
        let ty = type_of(spec).map_err(|e| format!("--print {e}"))?;
        printed.push((spec.name.clone(), ty, spec.components, None));
    }
    let outcome = crate::progress::run(launch, groups);
    if args.jit_report {
        eprint!("{}", jit_report_text(&program));
    }
    let result = match outcome {
        Ok(result) => result,
        Err(e @ LaunchError::Cancelled { .. }) => {
            eprintln!("{file}: {e}");
            if let LaunchError::Cancelled { stopped, .. } = &e {
                for trap in stopped {
                    let message = format!(
                        "stopped here by Ctrl-C (kernel '{}', group {}, thread {}; pc {}: `{}`)",
                        trap.kernel, trap.group, trap.thread, trap.pc, trap.instruction
                    );
                    let report = Report::new(trap.span, Severity::Warning, "cancelled", message);
                    renderer.report(&file, &text, &report);
                }
                renderer.finish();
            }
            return Err(Failure::Cancelled);
        }
        Err(LaunchError::Trap(trap)) => {
            report_trap(renderer, &file, &text, &trap);
            return Err(Failure::Trapped);
        }
        Err(e) => return Err(launch_error(&file, &e).into()),
    };

    // What is shown: --print variables, and the bound lists and buffers the run changed (all of
    // them with --print-inputs).
    let mut outputs: Vec<(String, serde_json::Value)> = Vec::new();
    let mut raw: Vec<(String, ElemType, Vec<u8>)> = Vec::new();
    let mut show = |name: &str, ty: ElemType, bytes: &[u8], input: Option<&[u8]>| {
        if args.print_inputs || input.is_none_or(|input| input != bytes) {
            outputs.push((name.to_string(), decode_all(bytes, ty)));
            raw.push((name.to_string(), ty, bytes.to_vec()));
        }
    };
    for (name, ty, components, input) in &printed {
        let mut bytes = result
            .vector_components_bytes(name, *ty, *components)
            .map_err(|e| format!("{file}: error: {e}"))?;
        let shown = existing * *components as usize * ty.size() as usize;
        bytes.truncate(shown);
        let input = input.as_ref().map(|i| i.get(..shown).unwrap_or(i));
        show(name, *ty, &bytes, input);
    }
    for (name, ty, base, input) in &svm_buffers {
        let mut bytes = vec![0; input.len()];
        svm.read(*base, &mut bytes)
            .map_err(|e| format!("--svm {name}: {e:?}"))?;
        show(name, *ty, &bytes, Some(input));
    }
    for (name, ty, buffer, input) in &surfaces {
        show(name, *ty, &buffer.to_bytes(), Some(input));
    }
    if let Some(dir) = &args.out {
        let path = dir.join("outputs.json");
        let object: serde_json::Map<String, serde_json::Value> = outputs.into_iter().collect();
        let count = object.len();
        std::fs::create_dir_all(dir)
            .and_then(|()| {
                std::fs::write(&path, format!("{}\n", serde_json::Value::Object(object)))
            })
            .map_err(|e| format!("--out {}: {e}", dir.display()))?;
        for (name, ty, bytes) in &raw {
            let npy = dir.join(format!("{name}.npy"));
            write_npy(&npy, bytes, *ty).map_err(|e| format!("--out {}: {e}", npy.display()))?;
        }
        return Ok(format!(
            "wrote {count} outputs to {} and NAME.npy beside it\n",
            path.display()
        ));
    }
    if args.json {
        let object: serde_json::Map<String, serde_json::Value> = outputs.into_iter().collect();
        return Ok(format!("{}\n", serde_json::Value::Object(object)));
    }
    let mut text = String::new();
    for (name, value) in outputs {
        let items = value.as_array().map(|a| list_text(a)).unwrap_or_default();
        text.push_str(&format!("{name} = [{items}]\n"));
    }
    Ok(text)
}
