//! An object file <-> an assembly module: text and binary are two views of one kernel.
//!
//! What the binary keeps is what the module gets back: the declarations (general, address,
//! predicate, sampler, surface, in that order), the inputs, the kernel attributes, then the
//! instructions; block labels (`L:`) and subroutine entries (`.function "f"`) are the LABEL
//! and SUBROUTINE instructions of the stream. What it does not keep: comments, `{`/`}` scopes,
//! where declarations stand among instructions, an alignment's spelling (the binary has one
//! code per alignment), the declared name of a sampler or surface (the compiler names them
//! `Sn`/`Tn`, the string pool keeps the declared name as `v_name`; the compiler's predicate
//! names `P01`, `P02` print `P1`, `P2`), and the byte width of an
//! integer attribute. [`canonical`] puts a parsed module in the shape [`Object::to_module`]
//! gives, so that the two compare equal.
//!
//! Numbering (spec/OBJECT_FORMAT.md): general variables are `32 + i` after the predefined
//! ones (`crate::rules::PREDEFINED_VARIABLE_NUMBERS`), predicates `1 + i`, surfaces `6 + i`,
//! addresses, samplers and labels from 0.

use crate::ast::{
    Align, Decl, DeclKind, DeclSpans, ElemType, FieldValue, Instruction, Module, Operand, Span,
    Stmt, StmtKind,
};
use crate::codec::{self, SymbolKind, SymbolTable};
use crate::rules;

use super::format::{
    AddressInfo, AttributeInfo, FunctionData, InputInfo, KernelData, LabelInfo, PredicateInfo,
    StateInfo, VarInfo,
};
use super::{CURRENT_VERSION, FunctionObject, KernelObject, Object, ObjectError, ObjectErrorKind};

/// The alignment of a binary code of `var_info.bit_properties` bits 4-7 (the code is the place
/// in [`rules::ALIGNMENTS`]): (the name the compiler prints, bytes, GRFs).
fn alignment_of_code(code: u8) -> Option<(&'static str, u32, u32)> {
    let alignment = rules::ALIGNMENTS.get(usize::from(code))?;
    Some((alignment.names[0], alignment.bytes, alignment.grfs))
}

/// Labels of `label_info.kind`.
const BLOCK_LABEL: u8 = 0;
const SUBROUTINE_LABEL: u8 = 1;

/// The table entry of the binary-only instruction whose Format table has the single field
/// `Label` and whose opcode is `opcode` (LABEL and SUBROUTINE).
fn label_instruction(opcode: u8) -> Option<usize> {
    crate::Opcode::from_value(opcode, None).map(crate::Opcode::index)
}

/// LABEL's and SUBROUTINE's opcodes (spec/LABEL.md, spec/SUBROUTINE.md).
const LABEL_OPCODE: u8 = 0x31;
const SUBROUTINE_OPCODE: u8 = 0x30;

fn content(field: &str, message: String) -> ObjectError {
    ObjectError::new(0, field, ObjectErrorKind::Content(message))
}

fn text(bytes: &[u8], field: &str) -> Result<String, ObjectError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| content(field, "a name is not UTF-8".to_string()))
}

fn stmt(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
    }
}

fn decl(name: String, kind: DeclKind, attrs: Vec<(String, Option<String>)>) -> Stmt {
    stmt(StmtKind::Decl(Decl {
        name,
        kind,
        attrs,
        spans: DeclSpans::default(),
    }))
}

impl Object {
    /// The object of one kernel module (`.kernel`); the version written is
    /// [`CURRENT_VERSION`], as the compiler writes it.
    pub fn from_module(module: &Module) -> Result<Object, ObjectError> {
        let (kernel, functions) = objects_from_module(module)?;
        Ok(Object {
            version: CURRENT_VERSION,
            kernels: vec![kernel],
            functions,
            file_variables: Vec::new(),
        })
    }

    /// The assembly of the object: its first kernel and its functions (what `visa dis`
    /// prints).
    pub fn to_module(&self) -> Result<Module, ObjectError> {
        match self.to_module_partial()? {
            (module, None) => Ok(module),
            (_, Some(error)) => Err(error),
        }
    }

    /// The assembly of the object as far as it decodes: every declaration, and the instructions
    /// of each kernel and function up to the first that does not decode, with the reason (the
    /// instruction streams of the compiler's own files are incomplete: spec/OBJECT_FORMAT.md,
    /// "Known differences"). An error in the declarations is the error.
    pub fn to_module_partial(&self) -> Result<(Module, Option<ObjectError>), ObjectError> {
        let kernel = self.kernels.first().ok_or_else(|| {
            content(
                "common_isa_header.num_kernels",
                "the file holds no kernel".to_string(),
            )
        })?;
        let (mut module, mut first_error) = kernel_to_module_partial(kernel, self.version)?;
        for function in &self.functions {
            let (mut stmts, error) =
                kernel_to_module_partial(&function_as_kernel(function), self.version)?;
            // The `.version` and `.kernel` lines a kernel starts with: a function has its
            // header line instead.
            stmts.stmts.drain(..2);
            let name = text(&function.name, "function_info.name")?;
            module
                .stmts
                .push(stmt(StmtKind::Function { name, global: true }));
            module.stmts.append(&mut stmts.stmts);
            first_error = first_error.or(error);
        }
        Ok((module, first_error))
    }
}

/// A function object in the shape of a kernel object without inputs (the two hold the same
/// tables), for the readers written for kernels ([`symbols`], [`declarations_module`]).
pub fn function_as_kernel(function: &FunctionObject) -> KernelObject {
    let d = &function.data;
    KernelObject {
        name: function.name.clone(),
        data: KernelData {
            strings: d.strings.clone(),
            name_index: d.name_index,
            variables: d.variables.clone(),
            addresses: d.addresses.clone(),
            predicates: d.predicates.clone(),
            labels: d.labels.clone(),
            samplers: d.samplers.clone(),
            surfaces: d.surfaces.clone(),
            vmes: d.vmes.clone(),
            entry: d.entry,
            attributes: d.attributes.clone(),
            instructions: d.instructions.clone(),
            ..KernelData::default()
        },
        gen_binaries: Vec::new(),
        relocs: (Vec::new(), Vec::new()),
    }
}

/// The string pool with lookups.
struct Strings<'a>(&'a [Vec<u8>]);

impl Strings<'_> {
    fn get(&self, index: u32, field: &str) -> Result<String, ObjectError> {
        let bytes = self.0.get(index as usize).ok_or_else(|| {
            content(
                field,
                format!("string {index} is not in the pool of {}", self.0.len()),
            )
        })?;
        text(bytes, field)
    }
}

fn attribute_value(name: &str, value: &[u8]) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    if name == "Target"
        && let [byte] = value
        && let Some((text, _)) = rules::TARGET_VALUES.iter().find(|(_, b)| b == byte)
    {
        return Some(format!("\"{text}\""));
    }
    if rules::INTEGER_ATTRIBUTES.contains(&name) && value.len() <= 4 {
        let n = value
            .iter()
            .rev()
            .fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
        return Some(n.to_string());
    }
    Some(format!("\"{}\"", String::from_utf8_lossy(value)))
}

fn attributes(
    attrs: &[AttributeInfo],
    strings: &Strings<'_>,
    field: &str,
) -> Result<Vec<(String, Option<String>)>, ObjectError> {
    attrs
        .iter()
        .map(|a| {
            let name = strings.get(a.name, field)?;
            let value = attribute_value(&name, &a.value);
            Ok((name, value))
        })
        .collect()
}

/// The statements a kernel object holds before its instructions: `.version`, `.kernel`, the
/// declarations, inputs and kernel attributes (what can be read of an object whose instruction
/// stream does not decode).
pub fn declarations_module(
    kernel: &KernelObject,
    version: (u8, u8),
) -> Result<Module, ObjectError> {
    Ok(Module {
        stmts: declarations(kernel, version)?.0,
    })
}

/// The symbol table of a kernel object: its declarations' names by number, as the instruction
/// stream refers to them.
pub fn symbols(kernel: &KernelObject) -> Result<SymbolTable, ObjectError> {
    Ok(declarations(kernel, CURRENT_VERSION)?.1)
}

/// The module of `kernel` as far as its instruction stream decodes, and why the rest does not.
fn kernel_to_module_partial(
    kernel: &KernelObject,
    version: (u8, u8),
) -> Result<(Module, Option<ObjectError>), ObjectError> {
    let (mut stmts, syms) = declarations(kernel, version)?;
    let stream = &kernel.data.instructions;
    let (mut at, mut index) = (0, 0);
    let mut error = None;
    while at < stream.len() {
        let (instruction, used) = match codec::decode(&stream[at..], &syms) {
            Ok(decoded) => decoded,
            Err(e) => {
                error = Some(ObjectError::new(
                    at + e.offset,
                    format!("kernel_data.instructions[{index}]"),
                    ObjectErrorKind::Content(e.kind.to_string()),
                ));
                break;
            }
        };
        at += used;
        index += 1;
        let stmt = instruction_stmt(instruction);
        let label = match &stmt.kind {
            StmtKind::Function { name, .. } => Some(name.clone()),
            _ => None,
        };
        stmts.push(stmt);
        // As the compiler prints a subroutine: `.function "f"` then `f:`.
        if let Some(name) = label {
            stmts.push(self::stmt(StmtKind::Label { name }));
        }
    }
    Ok((Module { stmts }, error))
}

/// The statements before the instructions (version, kernel, declarations, inputs, attributes)
/// and the symbol table of the stream.
fn declarations(
    kernel: &KernelObject,
    version: (u8, u8),
) -> Result<(Vec<Stmt>, SymbolTable), ObjectError> {
    let data = &kernel.data;
    let strings = Strings(&data.strings);
    let mut syms = SymbolTable::new();
    let mut stmts = vec![
        stmt(StmtKind::Version {
            major: u32::from(version.0),
            minor: u32::from(version.1),
        }),
        stmt(StmtKind::Kernel {
            name: strings.get(data.name_index, "kernel_data.name_index")?,
        }),
    ];
    // Declarations in the order their names entered the pool (the order they were written).
    let mut decls = Vec::new();
    let mut general_names = Vec::new();
    for (i, var) in data.variables.iter().enumerate() {
        let name = strings.get(var.name_index, "var_info.name_index")?;
        syms.define(
            SymbolKind::General,
            rules::FIRST_DECLARED_VARIABLE + i as u32,
            &name,
        );
        general_names.push(name);
    }
    for (i, var) in data.variables.iter().enumerate() {
        let field = "var_info.bit_properties";
        let ty = codec::operand::type_from_code(var.bit_properties & 0xf).ok_or_else(|| {
            content(
                field,
                format!("type code {} is not a type", var.bit_properties & 0xf),
            )
        })?;
        let (written, bytes, grfs) =
            alignment_of_code(var.bit_properties >> 4).ok_or_else(|| {
                content(
                    field,
                    format!(
                        "alignment code {} is not an alignment",
                        var.bit_properties >> 4
                    ),
                )
            })?;
        let alias = if var.alias_index == 0 {
            None
        } else {
            let base = syms
                .name(SymbolKind::General, var.alias_index)
                .ok_or_else(|| {
                    content(
                        "var_info.alias_index",
                        format!("variable {} does not exist", var.alias_index),
                    )
                })?;
            Some((base.to_string(), u32::from(var.alias_offset)))
        };
        decls.push((
            var.name_index,
            decl(
                general_names[i].clone(),
                DeclKind::General {
                    ty,
                    num_elts: u32::from(var.num_elements),
                    // Code 0 is what a declaration without `align=` gets.
                    align: (var.bit_properties >> 4 != 0).then(|| Align {
                        written: written.to_string(),
                        bytes,
                        grfs,
                    }),
                    alias,
                },
                attributes(&var.attributes, &strings, "var_info.attributes")?,
            ),
        ));
    }
    for (i, var) in data.addresses.iter().enumerate() {
        let name = strings.get(var.name_index, "address_info.name_index")?;
        syms.define(SymbolKind::Address, i as u32, &name);
        let attrs = attributes(&var.attributes, &strings, "address_info.attributes")?;
        decls.push((
            var.name_index,
            decl(
                name,
                DeclKind::Address {
                    num_elts: u32::from(var.num_elements),
                },
                attrs,
            ),
        ));
    }
    for (i, var) in data.predicates.iter().enumerate() {
        // The compiler's own names (`P01` for predicate 1) print by number (`P1`).
        let pooled = strings.get(var.name_index, "predicate_info.name_index")?;
        let number = 1 + i as u32;
        let by_number = pooled
            .strip_prefix('P')
            .and_then(|digits| digits.parse::<u32>().ok())
            == Some(number);
        let name = if by_number {
            format!("P{number}")
        } else {
            pooled
        };
        syms.define(SymbolKind::Predicate, 1 + i as u32, &name);
        let attrs = attributes(&var.attributes, &strings, "predicate_info.attributes")?;
        decls.push((
            var.name_index,
            decl(
                name,
                DeclKind::Predicate {
                    num_elts: u32::from(var.num_elements),
                },
                attrs,
            ),
        ));
    }
    for (i, var) in data.samplers.iter().enumerate() {
        let name = format!("S{i}");
        syms.define(SymbolKind::Sampler, i as u32, &name);
        let v_name = Some(strings.get(var.name_index, "sampler_info.name_index")?);
        let attrs = attributes(&var.attributes, &strings, "sampler_info.attributes")?;
        decls.push((
            var.name_index,
            decl(
                name,
                DeclKind::Sampler {
                    num_elts: u32::from(var.num_elements),
                    v_name,
                },
                attrs,
            ),
        ));
    }
    for (i, var) in data.surfaces.iter().enumerate() {
        let number = rules::FIRST_USER_SURFACE + i as u32;
        let name = format!("T{number}");
        syms.define(SymbolKind::Surface, number, &name);
        let v_name = Some(strings.get(var.name_index, "surface_info.name_index")?);
        let attrs = attributes(&var.attributes, &strings, "surface_info.attributes")?;
        decls.push((
            var.name_index,
            decl(
                name,
                DeclKind::Surface {
                    num_elts: u32::from(var.num_elements),
                    v_name,
                },
                attrs,
            ),
        ));
    }
    for (i, label) in data.labels.iter().enumerate() {
        let name = strings.get(label.name_index, "label_info.name_index")?;
        syms.define(SymbolKind::Label, i as u32, &name);
    }
    // A called function is named by the index of its name in the pool.
    for (i, string) in data.strings.iter().enumerate() {
        if let Ok(name) = std::str::from_utf8(string) {
            syms.define(SymbolKind::Function, i as u32, name);
        }
    }
    decls.sort_by_key(|(key, _)| *key);
    stmts.extend(decls.into_iter().map(|(_, d)| d));
    for input in &data.inputs {
        stmts.push(input_stmt(input, &syms)?);
    }
    let mut kernel_attrs = attributes(&data.attributes, &strings, "kernel_data.attributes")?;
    // A last `Target` of the default value is the one a writer adds for a kernel that gives
    // none (the compiler adds it when it finishes the kernel, after every other name): left
    // unwritten, so that assembling the text again adds it at the same place of the pool.
    if let Some((name, Some(value))) = kernel_attrs.last()
        && name == "Target"
        && value.trim_matches('"') == TARGET_DEFAULT_TEXT
    {
        kernel_attrs.pop();
    }
    for (name, value) in kernel_attrs {
        stmts.push(stmt(StmtKind::KernelAttr { name, value }));
    }
    Ok((stmts, syms))
}

/// A LABEL or SUBROUTINE instruction is the statement `L:` or `.function "f"`.
fn instruction_stmt(instruction: Instruction) -> Stmt {
    let opcode = crate::INSTRUCTIONS
        .get(instruction.desc)
        .map(|d| (d.opcode, d.subop));
    let label = match instruction.fields.as_slice() {
        [FieldValue::Operand(Operand::Name(name))] => Some(name.clone()),
        _ => None,
    };
    match (opcode, label) {
        (Some((LABEL_OPCODE, None)), Some(name)) => stmt(StmtKind::Label { name }),
        (Some((SUBROUTINE_OPCODE, None)), Some(name)) => stmt(StmtKind::Function {
            name,
            global: false,
        }),
        _ => stmt(StmtKind::Instr(instruction)),
    }
}

fn input_stmt(input: &InputInfo, syms: &SymbolTable) -> Result<Stmt, ObjectError> {
    let kind = match input.kind & 0x7 {
        0 => SymbolKind::General,
        1 => SymbolKind::Sampler,
        2 => SymbolKind::Surface,
        other => {
            return Err(content(
                "input_info.kind",
                format!("input class {other} is not general, sampler or surface"),
            ));
        }
    };
    let name = syms
        .name(kind, input.id)
        .ok_or_else(|| {
            content(
                "input_info.id",
                format!("no {kind} has number {}", input.id),
            )
        })?
        .to_string();
    let offset = u32::try_from(input.offset).map_err(|_| {
        content(
            "input_info.offset",
            format!("offset {} is negative", input.offset),
        )
    })?;
    let size = u32::from(input.size);
    let provenance = input.kind >> 3;
    Ok(if provenance == 0 {
        stmt(StmtKind::Input { name, offset, size })
    } else {
        stmt(StmtKind::Directive {
            name: format!("implicit_UNDEFINED_{provenance}"),
            args: format!("{name} offset={offset} size={size}"),
        })
    })
}

/// Builds the string pool in the compiler's order: the kernel's name, the predefined names,
/// then names as they are created.
struct Pool(Vec<Vec<u8>>);

impl Pool {
    fn add(&mut self, name: &str) -> Result<u32, ObjectError> {
        if name.is_empty() {
            return Ok(0);
        }
        self.0.push(name.as_bytes().to_vec());
        u32::try_from(self.0.len() - 1)
            .map_err(|_| content("kernel_data.string_count", "too many strings".to_string()))
    }
}

fn attribute_bytes(name: &str, value: Option<&str>) -> Vec<u8> {
    let Some(value) = value else {
        return Vec::new();
    };
    let unquoted = value.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
    if name == "Target" {
        let word = unquoted.unwrap_or(value);
        if let Some((_, byte)) = rules::TARGET_VALUES.iter().find(|(t, _)| *t == word) {
            return vec![*byte];
        }
    }
    if unquoted.is_none()
        && rules::INTEGER_ATTRIBUTES.contains(&name)
        && let Ok(n) = value.parse::<u32>()
    {
        let width = if n <= 0xff {
            1
        } else if n <= 0xffff {
            2
        } else {
            4
        };
        return n.to_le_bytes()[..width].to_vec();
    }
    unquoted.unwrap_or(value).as_bytes().to_vec()
}

fn attribute_infos(
    pool: &mut Pool,
    attrs: &[(String, Option<String>)],
) -> Result<Vec<AttributeInfo>, ObjectError> {
    attrs
        .iter()
        .map(|(name, value)| {
            Ok(AttributeInfo {
                name: pool.add(name)?,
                value: attribute_bytes(name, value.as_deref()),
            })
        })
        .collect()
}

fn narrow<T: TryFrom<u32>>(value: u32, field: &str) -> Result<T, ObjectError> {
    T::try_from(value).map_err(|_| content(field, format!("{value} does not fit the field")))
}

/// The kernel of `module` and its `.global_function`s: each `.global_function "f"` starts a
/// function object that runs to the next one or to the end.
fn objects_from_module(
    module: &Module,
) -> Result<(KernelObject, Vec<FunctionObject>), ObjectError> {
    let mut kernel_name = None;
    let mut segments: Vec<(Option<String>, Vec<&Stmt>)> = vec![(None, Vec::new())];
    for s in &module.stmts {
        match &s.kind {
            StmtKind::Kernel { name } if kernel_name.is_none() => kernel_name = Some(name.clone()),
            StmtKind::Function { name, global: true } => {
                segments.push((Some(name.clone()), Vec::new()));
            }
            _ => segments.last_mut().expect("one segment at least").1.push(s),
        }
    }
    let name = kernel_name.ok_or_else(|| {
        content(
            "kernel_info.name",
            "the module has no `.kernel`".to_string(),
        )
    })?;
    let mut segments = segments.into_iter();
    let (_, kernel_stmts) = segments.next().expect("the kernel's segment");
    let mut data = routine_data(&name, &kernel_stmts, "kernel_data")?;
    data.entry = super::kernel_bytes(&data, CURRENT_VERSION)?.1;
    let kernel = KernelObject {
        name: name.into_bytes(),
        data,
        gen_binaries: Vec::new(),
        relocs: (Vec::new(), Vec::new()),
    };
    let mut functions = Vec::new();
    for (name, stmts) in segments {
        let name = name.expect("a function segment has a name");
        let k = routine_data(&name, &stmts, "function_data")?;
        let mut data = FunctionData {
            strings: k.strings,
            name_index: k.name_index,
            variables: k.variables,
            addresses: k.addresses,
            predicates: k.predicates,
            labels: k.labels,
            samplers: k.samplers,
            surfaces: k.surfaces,
            vmes: k.vmes,
            entry: 0,
            // What the compiler writes for a function assembled from text.
            input_size: 0,
            return_value_size: 0,
            attributes: k.attributes,
            instructions: k.instructions,
        };
        if !k.inputs.is_empty() {
            return Err(content(
                "function_data",
                format!("`.global_function \"{name}\"` declares inputs; only a kernel has them"),
            ));
        }
        data.entry = super::function_bytes(&data, CURRENT_VERSION)?.1;
        functions.push(FunctionObject {
            linkage: 0,
            name: name.into_bytes(),
            data,
            relocs: (Vec::new(), Vec::new()),
        });
    }
    Ok((kernel, functions))
}

/// The object data of one kernel or function named `name` from its statements (`what`:
/// `kernel_data` or `function_data`, for errors).
fn routine_data(name: &str, stmts: &[&Stmt], what: &str) -> Result<KernelData, ObjectError> {
    let mut pool = Pool(Vec::new());
    pool.add(name)?;
    for predefined in rules::PREDEFINED_VARIABLE_NUMBERS
        .iter()
        .chain(&rules::PREDEFINED_SURFACE_NAMES)
        .chain(rules::PREDEFINED_SAMPLERS)
    {
        pool.add(predefined)?;
    }
    let mut data = KernelData::default();
    let mut syms = SymbolTable::new();
    let mut attrs = Vec::new();
    let mut subroutines = Vec::new();
    let mut body = Vec::new();
    for s in stmts {
        match &s.kind {
            StmtKind::Decl(d) => declare(d, &mut data, &mut pool, &mut syms)?,
            StmtKind::KernelAttr { name, value } => attrs.push((name.clone(), value.clone())),
            StmtKind::Input { name, offset, size } => data
                .inputs
                .push(input_info(name, *offset, *size, 0, &syms)?),
            // The compiler prints a subroutine as `.function "f"` then `f:`: one label.
            StmtKind::Label { name } if matches!(body.last(), Some((SUBROUTINE_OPCODE, f, None)) if f == name) =>
                {}
            StmtKind::Label { name } => body.push((LABEL_OPCODE, name.clone(), None)),
            StmtKind::Function {
                name,
                global: false,
            } => {
                subroutines.push(name.clone());
                body.push((SUBROUTINE_OPCODE, name.clone(), None));
            }
            StmtKind::Instr(instruction) => body.push((0, String::new(), Some(instruction))),
            StmtKind::Version { .. }
            | StmtKind::Kernel { .. }
            | StmtKind::ScopeOpen
            | StmtKind::ScopeClose => {}
            StmtKind::Function { .. } | StmtKind::Directive { .. } => {
                return Err(content(
                    what,
                    format!(
                        "`{}` has no binary form here",
                        crate::text::format_module(&Module {
                            stmts: vec![(*s).clone()]
                        })
                        .trim()
                    ),
                ));
            }
        }
    }
    data.attributes = attribute_infos(&mut pool, &attrs)?;
    // A called function is named by the index of its name in the caller's string pool, which
    // the compiler adds when the call is assembled: found by a trial encoding, in call order.
    let mut trial_syms = syms.clone();
    for (_, _, instruction) in &body {
        if let Some(instruction) = instruction {
            let _ = codec::encode(instruction, &mut trial_syms, &mut Vec::new());
        }
    }
    let mut id = 0;
    while let Some(function) = trial_syms.name(SymbolKind::Function, id) {
        syms.define(SymbolKind::Function, pool.add(function)?, function);
        id += 1;
    }
    let mut code = Vec::new();
    for (index, (opcode, label, instruction)) in body.into_iter().enumerate() {
        let owned;
        let instruction = match instruction {
            Some(instruction) => instruction,
            None => {
                let desc = label_instruction(opcode).ok_or_else(|| {
                    content(what, format!("no instruction has opcode {opcode:#x}"))
                })?;
                owned = Instruction {
                    desc,
                    saturate: false,
                    fields: vec![FieldValue::Operand(Operand::Name(label))],
                    span: Span::default(),
                    field_spans: Vec::new(),
                    element_spans: Vec::new(),
                };
                &owned
            }
        };
        codec::encode(instruction, &mut syms, &mut code).map_err(|e| {
            ObjectError::new(
                code.len(),
                format!("kernel_data.instructions[{index}]"),
                ObjectErrorKind::Content(e.to_string()),
            )
        })?;
    }
    // Labels in the order the stream first names them.
    let mut id = 0;
    while let Some(label) = syms.name(SymbolKind::Label, id) {
        let label = label.to_string();
        data.labels.push(LabelInfo {
            name_index: pool.add(&label)?,
            kind: if subroutines.contains(&label) {
                SUBROUTINE_LABEL
            } else {
                BLOCK_LABEL
            },
            attributes: Vec::new(),
        });
        id += 1;
    }
    if !attrs.iter().any(|(n, _)| n == "Target") {
        let target = TARGET_DEFAULT;
        data.attributes.push(AttributeInfo {
            name: pool.add("Target")?,
            value: vec![target],
        });
    }
    data.instructions = code;
    data.strings = pool.0;
    data.name_index = 0;
    Ok(data)
}

/// The `Target` the compiler adds when the assembly gives none (`3d`).
const TARGET_DEFAULT: u8 = 1;

/// [`TARGET_DEFAULT`] as the assembly writes it.
const TARGET_DEFAULT_TEXT: &str = "3d";

fn declare(
    d: &Decl,
    data: &mut KernelData,
    pool: &mut Pool,
    syms: &mut SymbolTable,
) -> Result<(), ObjectError> {
    match &d.kind {
        DeclKind::General {
            ty,
            num_elts,
            align,
            alias,
        } => {
            let id = rules::FIRST_DECLARED_VARIABLE + data.variables.len() as u32;
            let name_index = pool.add(&d.name)?;
            let align_code = align_code(align.as_ref(), *ty)?;
            let (alias_index, alias_offset) = match alias {
                None => (0, 0),
                Some((base, offset)) => (
                    syms.id(SymbolKind::General, base).ok_or_else(|| {
                        content(
                            "var_info.alias_index",
                            format!("`{base}` is not declared before `{}`", d.name),
                        )
                    })?,
                    narrow(*offset, "var_info.alias_offset")?,
                ),
            };
            syms.define(SymbolKind::General, id, &d.name);
            let attributes = attribute_infos(pool, &d.attrs)?;
            data.variables.push(VarInfo {
                name_index,
                bit_properties: codec::operand::type_code(*ty) | (align_code << 4),
                num_elements: narrow(*num_elts, "var_info.num_elements")?,
                alias_index,
                alias_offset,
                alias_scope_specifier: 0,
                attributes,
            });
        }
        DeclKind::Address { num_elts } => {
            syms.define(SymbolKind::Address, data.addresses.len() as u32, &d.name);
            let name_index = pool.add(&d.name)?;
            let attributes = attribute_infos(pool, &d.attrs)?;
            data.addresses.push(AddressInfo {
                name_index,
                num_elements: narrow(*num_elts, "address_info.num_elements")?,
                attributes,
            });
        }
        DeclKind::Predicate { num_elts } => {
            syms.define(
                SymbolKind::Predicate,
                1 + data.predicates.len() as u32,
                &d.name,
            );
            let name_index = pool.add(&d.name)?;
            let attributes = attribute_infos(pool, &d.attrs)?;
            data.predicates.push(PredicateInfo {
                name_index,
                num_elements: narrow(*num_elts, "predicate_info.num_elements")?,
                attributes,
            });
        }
        DeclKind::Sampler { num_elts, v_name } => {
            syms.define(SymbolKind::Sampler, data.samplers.len() as u32, &d.name);
            let name_index = pool.add(v_name.as_deref().unwrap_or(&d.name))?;
            let attributes = attribute_infos(pool, &d.attrs)?;
            data.samplers.push(StateInfo {
                name_index,
                num_elements: narrow(*num_elts, "sampler_info.num_elements")?,
                attributes,
            });
        }
        DeclKind::Surface { num_elts, v_name } => {
            syms.define(
                SymbolKind::Surface,
                rules::FIRST_USER_SURFACE + data.surfaces.len() as u32,
                &d.name,
            );
            let name_index = pool.add(v_name.as_deref().unwrap_or(&d.name))?;
            let attributes = attribute_infos(pool, &d.attrs)?;
            data.surfaces.push(StateInfo {
                name_index,
                num_elements: narrow(*num_elts, "surface_info.num_elements")?,
                attributes,
            });
        }
    }
    Ok(())
}

/// The alignment code of a declaration: 0 (byte) without `align=`, as the compiler writes it.
fn align_code(align: Option<&Align>, _ty: ElemType) -> Result<u8, ObjectError> {
    let Some(align) = align else {
        return Ok(0);
    };
    rules::ALIGNMENTS
        .iter()
        .position(|a| a.bytes == align.bytes && a.grfs == align.grfs)
        .and_then(|code| u8::try_from(code).ok())
        .ok_or_else(|| {
            content(
                "var_info.bit_properties",
                format!("alignment `{}` has no binary code", align.written),
            )
        })
}

fn input_info(
    name: &str,
    offset: u32,
    size: u32,
    provenance: u8,
    syms: &SymbolTable,
) -> Result<InputInfo, ObjectError> {
    let (class, id) = if let Some(id) = syms.id(SymbolKind::General, name) {
        (0, id)
    } else if let Some(id) = syms.id(SymbolKind::Sampler, name) {
        (1, id)
    } else if let Some(id) = syms.id(SymbolKind::Surface, name) {
        (2, id)
    } else {
        return Err(content(
            "input_info.id",
            format!("input `{name}` is not declared before it"),
        ));
    };
    Ok(InputInfo {
        kind: class | (provenance << 3),
        id,
        offset: narrow::<i16>(offset, "input_info.offset")?,
        size: narrow(size, "input_info.size")?,
    })
}

/// A parsed module in the shape [`Object::to_module`] gives: `.version` as written in the
/// binary, declarations by kind, then inputs, kernel attributes (with `Target` added when
/// missing) and the instructions; no scopes, no positions; alignments spelled by code.
pub fn canonical(module: &Module) -> Result<Module, ObjectError> {
    let object = Object::from_module(module)?;
    object.to_module()
}
