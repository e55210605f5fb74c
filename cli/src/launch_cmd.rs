//! `visa launch`: runs a kernel compiled by IGC (`ocloc --format zebin` and the `.visaasm` IGC
//! dumped for it) with the driver's ABI, arguments named as in the OpenCL source.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use visa_isa::ast::ElemType;
use visa_runtime::Engine;
use visa_runtime::compiled::npy::{self, NpyArray, NpyType};
use visa_runtime::compiled::{
    ArgKind, ArgValue, CompiledError, CompiledProgram, KernelArg, find_visa_in_dump,
};

use crate::run_cmd::{
    Item, Values, decode_all, encode_all, engine_choice, jit_report_text, list_text, parse_engine,
    parse_values,
};

#[derive(Debug, Args)]
#[command(after_help = "ARGUMENTS (--arg, by OpenCL name or index):
  NAME=@FILE.npy        a buffer with the array's contents (its dtype is the element type)
  NAME:TYPE=[LIST]      a buffer of TYPE (float, int, uchar, ... or f, d, ub, ...) elements,
                        LIST as in `visa run`: [1, 2.5, -3], [0;64], [0..16]
  NAME=VALUE            a value argument (its OpenCL type), e.g. a=2.5; NAME:TYPE=[LIST] gives
                        a vector or struct value's elements
  NAME=local:BYTES      a __local buffer of BYTES bytes

Example (a dump from `IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump ocloc compile -file
saxpy.cl -device dg2 --format zebin`):
  visa launch saxpy_dg2.bin --kernel saxpy --visa dump --global 1024 --local 64 \\
      --arg x:float=[0..1024] --arg y:float=[1;1024] --arg a=2")]
pub struct LaunchArgs {
    /// The zebin (`ocloc compile ... --format zebin`).
    #[arg(value_name = "PROGRAM.bin")]
    program: PathBuf,
    /// The kernel's name.
    #[arg(long)]
    kernel: String,
    /// The kernel's dumped vISA: a `.visaasm` file, or IGC's dump directory (the file whose
    /// `.kernel` is NAME at the zebin's SIMD width is used).
    #[arg(long, value_name = "FILE.visaasm|DUMPDIR")]
    visa: PathBuf,
    /// The global size in work-items: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_dims)]
    global: Dims,
    /// The work-group size: X[,Y[,Z]] (default: chosen as the driver would, the largest
    /// divisor of X of at most 256 work-items, preferring multiples of the SIMD width).
    #[arg(long, value_name = "X[,Y[,Z]]", value_parser = parse_dims)]
    local: Option<Dims>,
    /// One argument (see ARGUMENTS below); every argument of the kernel must be given.
    #[arg(long = "arg", value_name = "ARG")]
    args: Vec<String>,
    /// Write each buffer argument to DIR/NAME.npy instead of printing it.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the buffers as one JSON object (name: array).
    #[arg(long)]
    json: bool,
    /// The engine: `jit` or `interp`. Default: the `VISA_ENGINE` environment variable, else
    /// compiled code when the launch is large enough to repay compiling (as `visa run`).
    #[arg(long, value_parser = parse_engine)]
    engine: Option<Engine>,
    /// After the launch, print to standard error which instructions the compiled tier runs as
    /// native code and which through the interpreter's handlers.
    #[arg(long)]
    jit_report: bool,
}

#[derive(Debug, Clone)]
struct Dims(Vec<u32>);

fn parse_dims(text: &str) -> Result<Dims, String> {
    let dims = text
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| format!("'{d}' is not a size of at least 1"))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    if dims.len() > 3 {
        return Err(format!("'{text}' has more than 3 dimensions"));
    }
    Ok(Dims(dims))
}

/// Exit code of a launch that trapped (as `visa run`).
const EXIT_TRAP: u8 = 3;

pub fn run(args: &LaunchArgs) -> ExitCode {
    match execute(args) {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(Failure::Trapped(message)) => {
            eprintln!("error: trap: {message}");
            ExitCode::from(EXIT_TRAP)
        }
        Err(Failure::Input(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

enum Failure {
    Input(String),
    Trapped(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Input(message)
    }
}

/// A buffer's element type as given (npy dtype or TYPE) or from the OpenCL pointee type.
fn element_type(arg: &KernelArg) -> NpyType {
    NpyType::from_opencl(&arg.type_name).unwrap_or(NpyType::U8)
}

fn elem_type(ty: NpyType) -> ElemType {
    match ty {
        NpyType::I8 => ElemType::B,
        NpyType::U8 => ElemType::Ub,
        NpyType::I16 => ElemType::W,
        NpyType::U16 => ElemType::Uw,
        NpyType::I32 => ElemType::D,
        NpyType::U32 => ElemType::Ud,
        NpyType::I64 => ElemType::Q,
        NpyType::U64 => ElemType::Uq,
        NpyType::F16 => ElemType::Hf,
        NpyType::F32 => ElemType::F,
        NpyType::F64 => ElemType::Df,
    }
}

/// TYPE of `NAME:TYPE=...`: an OpenCL scalar name or a vISA type name.
fn parse_type(text: &str) -> Result<NpyType, String> {
    if let Some(ty) = NpyType::from_opencl(text) {
        return Ok(ty);
    }
    let visa =
        ElemType::from_name(text.trim()).ok_or_else(|| format!("unknown element type '{text}'"))?;
    [
        NpyType::I8,
        NpyType::U8,
        NpyType::I16,
        NpyType::U16,
        NpyType::I32,
        NpyType::U32,
        NpyType::I64,
        NpyType::U64,
        NpyType::F16,
        NpyType::F32,
        NpyType::F64,
    ]
    .into_iter()
    .find(|t| elem_type(*t) == visa)
    .ok_or_else(|| format!("type '{text}' is not a buffer element type"))
}

/// One `--arg`: the argument it names, its value and (for buffers) its element type.
fn parse_arg(
    text: &str,
    kernel_args: &[KernelArg],
) -> Result<(usize, ArgValue, Option<NpyType>), String> {
    let (head, value) = text
        .split_once('=')
        .ok_or_else(|| format!("--arg '{text}': expected NAME=VALUE"))?;
    let (name, ty) = match head.split_once(':') {
        Some((name, ty)) => (
            name.trim(),
            Some(parse_type(ty).map_err(|e| format!("--arg '{text}': {e}"))?),
        ),
        None => (head.trim(), None),
    };
    let position = kernel_args
        .iter()
        .position(|a| a.name == name)
        .or_else(|| {
            name.parse::<usize>()
                .ok()
                .filter(|i| *i < kernel_args.len())
        })
        .ok_or_else(|| {
            format!(
                "--arg '{text}': the kernel has no argument '{name}' (arguments: {})",
                kernel_args
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let arg = &kernel_args[position];
    let bad = |e: String| format!("--arg '{text}': {e}");
    if let Some(bytes) = value.trim().strip_prefix("local:") {
        let bytes = bytes
            .trim()
            .parse::<u32>()
            .map_err(|_| bad(format!("'{bytes}' is not a byte count")))?;
        return Ok((position, ArgValue::Local(bytes), None));
    }
    if let (Some(path), ArgKind::Buffer { .. }) = (value.trim().strip_prefix('@'), &arg.kind)
        && path.ends_with(".npy")
    {
        let bytes = std::fs::read(path).map_err(|e| bad(format!("{path}: cannot read: {e}")))?;
        let array = npy::read(&bytes).map_err(|e| bad(format!("{path}: {e}")))?;
        return Ok((position, ArgValue::Buffer(array.bytes), Some(array.ty)));
    }
    let ty = ty.unwrap_or_else(|| element_type(arg));
    let items = match parse_values(value).map_err(bad)? {
        Values::List(items) => items,
        Values::Scalar(item) => vec![Item::Text(item.into())],
    };
    let bytes = encode_all(&items, elem_type(ty)).map_err(bad)?;
    Ok(match arg.kind {
        ArgKind::Buffer { .. } => (position, ArgValue::Buffer(bytes), Some(ty)),
        _ => (position, ArgValue::Value(bytes), None),
    })
}

fn execute(args: &LaunchArgs) -> Result<String, Failure> {
    let program_path = args.program.display().to_string();
    let zebin =
        std::fs::read(&args.program).map_err(|e| format!("{program_path}: cannot read: {e}"))?;
    let compiled = |e: CompiledError| Failure::Input(format!("{program_path}: {e}"));
    let program = CompiledProgram::from_zebin(&zebin).map_err(compiled)?;
    let kernel = program.kernel(&args.kernel).map_err(compiled)?;
    let (visa_path, text) = if args.visa.is_dir() {
        find_visa_in_dump(&args.visa, &args.kernel, kernel.simd_size()).map_err(compiled)?
    } else {
        let text = std::fs::read_to_string(&args.visa)
            .map_err(|e| format!("{}: cannot read: {e}", args.visa.display()))?;
        (args.visa.clone(), text)
    };
    let kernel_args = kernel.args().to_vec();
    let mut values: Vec<Option<(ArgValue, Option<NpyType>)>> = vec![None; kernel_args.len()];
    for text in &args.args {
        let (position, value, ty) = parse_arg(text, &kernel_args)?;
        if values[position].is_some() {
            return Err(Failure::Input(format!(
                "--arg '{text}': argument '{}' is given twice",
                kernel_args[position].name
            )));
        }
        values[position] = Some((value, ty));
    }
    if let Some(missing) = values.iter().position(Option::is_none) {
        let arg = &kernel_args[missing];
        return Err(Failure::Input(format!(
            "argument '{}' ({}) is not given: --arg {}=...",
            arg.name, arg.type_name, arg.name
        )));
    }
    let (engine, tier) = engine_choice(args.engine);
    let visa_file = visa_path.display().to_string();
    let loaded = kernel
        .visa_with_tier(&text, engine, tier)
        .map_err(|e| Failure::Input(format!("{visa_file}: {e}")))?;
    let launch_values: Vec<ArgValue> = values
        .iter()
        .map(|v| {
            v.as_ref()
                .map(|(value, _)| value.clone())
                .unwrap_or(ArgValue::Local(0))
        })
        .collect();
    let outcome = loaded.launch(
        &args.global.0,
        args.local.as_ref().map(|l| l.0.as_slice()),
        &launch_values,
    );
    if args.jit_report {
        eprint!("{}", jit_report_text(loaded.program()));
    }
    let output = match outcome {
        Ok(output) => output,
        Err(CompiledError::Trap { message, .. }) => {
            return Err(Failure::Trapped(format!("{visa_file}: {message}")));
        }
        Err(e) => return Err(Failure::Input(format!("{visa_file}: {e}"))),
    };
    let typed = |name: &str| -> NpyType {
        kernel_args
            .iter()
            .position(|a| a.name == name)
            .and_then(|i| {
                values[i]
                    .as_ref()
                    .and_then(|(_, ty)| *ty)
                    .or(Some(element_type(&kernel_args[i])))
            })
            .unwrap_or(NpyType::U8)
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut written = String::new();
        for (name, bytes) in &output.buffers {
            let path: PathBuf = Path::new(dir).join(format!("{name}.npy"));
            let ty = typed(name);
            let whole = bytes.len() / ty.size() * ty.size();
            npy::write(
                &path,
                &NpyArray {
                    ty,
                    bytes: bytes[..whole].to_vec(),
                },
            )
            .map_err(|e| format!("{}: {e}", path.display()))?;
            written.push_str(&format!("{name}: {}\n", path.display()));
        }
        return Ok(written);
    }
    let mut json = serde_json::Map::new();
    let mut text_out = String::new();
    for (name, bytes) in &output.buffers {
        let ty = elem_type(typed(name));
        let whole = bytes.len() / ty.size() as usize * ty.size() as usize;
        let values = decode_all(&bytes[..whole], ty);
        if let serde_json::Value::Array(items) = &values {
            text_out.push_str(&format!("{name}: [{}]\n", list_text(items)));
        }
        json.insert(name.clone(), values);
    }
    if args.json {
        Ok(format!("{}\n", serde_json::Value::Object(json)))
    } else {
        Ok(text_out)
    }
}
