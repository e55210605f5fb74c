//! The legality rules of vISA text in one place: platforms, predefined variables and surfaces,
//! declaration limits and region value sets. The checker ([`crate::text::check_with_options`],
//! which `visa check` and `isa!` run) and the runtime loader both read them from here, so that
//! what one accepts the other accepts.
//!
//! Where the Intel compiler's vISA verifier (`visa/IsaVerification.cpp` of
//! intel/intel-graphics-compiler) and the per-instruction documents disagree, the verifier
//! decides what is an error; what only a document says is a warning (see
//! [`crate::text::DiagnosticKind`]).

use crate::ast::ElemType;

/// A target platform, in the compiler's order (a later platform is "newer"): some rules depend
/// on it, and the GRF size does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Platform {
    /// Broadwell.
    Bdw,
    /// Cherryview.
    Chv,
    /// Skylake.
    Skl,
    /// Broxton.
    Bxt,
    /// Cannonlake.
    Cnl,
    /// Ice Lake.
    Icllp,
    /// Tiger Lake.
    Tgllp,
    /// Xe-HP SDV.
    XeHpSdv,
    /// DG2 (Alchemist).
    Dg2,
    /// Meteor Lake.
    Mtl,
    /// Arrow Lake.
    Arl,
    /// Ponte Vecchio (64-byte GRFs from here on).
    Pvc,
    /// Ponte Vecchio XT.
    PvcXt,
    /// Xe2 (Lunar Lake, Battlemage).
    Xe2,
    /// Xe3 (Panther Lake).
    Xe3,
    /// Xe3P (Crescent Island).
    Xe3pCri,
    /// Xe3P graphics.
    Xe3pGraphics,
}

impl Platform {
    /// Every platform, oldest first, with the names [`Platform::parse`] accepts (the first is
    /// the one [`Platform::name`] prints).
    pub const ALL: &'static [(Platform, &'static [&'static str])] = &[
        (Platform::Bdw, &["bdw"]),
        (Platform::Chv, &["chv"]),
        (Platform::Skl, &["skl"]),
        (Platform::Bxt, &["bxt"]),
        (Platform::Cnl, &["cnl"]),
        (Platform::Icllp, &["icllp", "icl"]),
        (Platform::Tgllp, &["tgllp", "tgl"]),
        (Platform::XeHpSdv, &["xehp", "xehp_sdv"]),
        (Platform::Dg2, &["dg2"]),
        (Platform::Mtl, &["mtl"]),
        (Platform::Arl, &["arl"]),
        (Platform::Pvc, &["pvc"]),
        (Platform::PvcXt, &["pvcxt"]),
        (Platform::Xe2, &["xe2", "lnl", "bmg"]),
        (Platform::Xe3, &["xe3", "ptl"]),
        (Platform::Xe3pCri, &["xe3p_cri", "cri"]),
        (Platform::Xe3pGraphics, &["xe3p_graphics"]),
    ];

    /// The platform of a name of [`Platform::ALL`], in any case.
    pub fn parse(name: &str) -> Option<Platform> {
        Self::ALL
            .iter()
            .find(|(_, names)| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
            .map(|(p, _)| *p)
    }

    /// The platform's usual name.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("?", |(_, names)| names[0])
    }

    /// Every name [`Platform::parse`] accepts, comma-separated (for help and error texts).
    pub fn names() -> String {
        Self::ALL
            .iter()
            .map(|(_, names)| names[0])
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Bytes per GRF: 32 up to ARL, 64 from PVC on.
    pub fn grf_bytes(self) -> u32 {
        if self >= Platform::Pvc { 64 } else { 32 }
    }
}

/// The GRF sizes of all platforms (a kernel is accepted when no platform is named if some GRF
/// size accepts it).
pub const GRF_SIZES: [u32; 2] = [32, 64];

/// The GRF size the runtime and `isa!` assume when no platform is named.
pub const DEFAULT_GRF_BYTES: u32 = 32;

/// The largest GRF size of any platform.
pub const MAX_GRF_BYTES: u32 = 64;

// ---------------------------------------------------------------------------------------------
// Predefined variables and surfaces

/// The shape of a predefined general variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PredefinedSize {
    /// A fixed number of elements.
    Elements(u32),
    /// A number of GRFs of its type (`%arg`, `%retval`): the element count depends on the GRF
    /// size.
    Grfs(u32),
}

/// Which bytes of a predefined variable an instruction may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writable {
    /// Read-only: writing it is an error.
    No,
    /// Every byte.
    Yes,
    /// Only an operand starting at one of these byte offsets.
    At(&'static [u32]),
}

/// A predefined general variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Predefined {
    /// Its name (lower case; names are matched in any case).
    pub name: &'static str,
    /// The name it stands for when it is a second spelling (`%tm` is `%tsc`).
    pub same_as: Option<&'static str>,
    /// Element type.
    pub ty: ElemType,
    /// Element count.
    pub size: PredefinedSize,
    /// Whether a thread starts with a defined value in it (`%arg`, `%retval`, `%sp`, `%fp` and
    /// the implicit-argument pointers this model does not provide start undefined).
    pub defined_at_start: bool,
    /// What a destination operand may write (the verifier rejects writes to read-only
    /// predefined variables).
    pub writable: Writable,
    /// A vISA 2.x variable: unbound in a module of `.version` 3 or later (the compiler's
    /// 3.x/4.x list of predefined variables, visa/PreDefinedVars.cpp, leaves it out).
    pub only_version_2: bool,
}

impl Predefined {
    /// Its element count with GRFs of `grf_bytes`.
    pub fn num_elts(&self, grf_bytes: u32) -> u32 {
        match self.size {
            PredefinedSize::Elements(n) => n,
            PredefinedSize::Grfs(n) => n * grf_bytes / self.ty.size().max(1),
        }
    }

    /// The name of the storage it refers to (itself, or the name it is a spelling of).
    pub fn canonical(&self) -> &'static str {
        self.same_as.unwrap_or(self.name)
    }
}

const fn var(name: &'static str, ty: ElemType, elts: u32, defined: bool) -> Predefined {
    Predefined {
        name,
        same_as: None,
        ty,
        size: PredefinedSize::Elements(elts),
        defined_at_start: defined,
        writable: Writable::No,
        only_version_2: false,
    }
}

const fn version_2(mut p: Predefined) -> Predefined {
    p.only_version_2 = true;
    p
}

const fn writable(mut p: Predefined, writable: Writable) -> Predefined {
    p.writable = writable;
    p
}

/// The predefined general variables (upstream 4_visa_header, general variables V0..; names and
/// types as the compiler prints them).
pub const PREDEFINED: &[Predefined] = &[
    writable(var("%null", ElemType::Ud, 1, true), Writable::Yes),
    var("%thread_x", ElemType::Uw, 1, true),
    var("%thread_y", ElemType::Uw, 1, true),
    var("%group_id_x", ElemType::Ud, 1, true),
    var("%group_id_y", ElemType::Ud, 1, true),
    var("%group_id_z", ElemType::Ud, 1, true),
    version_2(var("%local_id_x", ElemType::Ud, 1, true)),
    version_2(var("%local_id_y", ElemType::Ud, 1, true)),
    version_2(var("%local_id_z", ElemType::Ud, 1, true)),
    version_2(var("%local_size_x", ElemType::Ud, 1, true)),
    version_2(var("%local_size_y", ElemType::Ud, 1, true)),
    version_2(var("%local_size_z", ElemType::Ud, 1, true)),
    version_2(var("%group_count_x", ElemType::Ud, 1, true)),
    version_2(var("%group_count_y", ElemType::Ud, 1, true)),
    version_2(var("%group_count_z", ElemType::Ud, 1, true)),
    // Only the pause counter (element 4) may be written.
    writable(var("%tsc", ElemType::Ud, 5, true), Writable::At(&[16])),
    Predefined {
        same_as: Some("%tsc"),
        ..writable(var("%tm", ElemType::Ud, 5, true), Writable::At(&[16]))
    },
    // One GRF of the platform (8 dwords with 32-byte GRFs, 16 with 64-byte GRFs).
    Predefined {
        size: PredefinedSize::Grfs(1),
        ..var("%r0", ElemType::Ud, 0, true)
    },
    Predefined {
        size: PredefinedSize::Grfs(32),
        ..writable(var("%arg", ElemType::Ud, 0, false), Writable::Yes)
    },
    Predefined {
        size: PredefinedSize::Grfs(12),
        ..writable(var("%retval", ElemType::Ud, 0, false), Writable::Yes)
    },
    writable(var("%sp", ElemType::Uq, 1, false), Writable::Yes),
    writable(var("%fp", ElemType::Uq, 1, false), Writable::Yes),
    var("%hw_id", ElemType::Ud, 1, true),
    // Elements 1 and 2 may be written.
    writable(var("%sr0", ElemType::Ud, 4, true), Writable::At(&[4, 8])),
    writable(var("%cr0", ElemType::Ud, 1, true), Writable::Yes),
    var("%ce0", ElemType::Ud, 1, true),
    writable(var("%dbg0", ElemType::Ud, 2, true), Writable::Yes),
    var("%color", ElemType::Uw, 1, true),
    writable(
        var("%impl_arg_buf_ptr", ElemType::Uq, 1, false),
        Writable::Yes,
    ),
    writable(
        var("%local_id_buf_ptr", ElemType::Uq, 1, false),
        Writable::Yes,
    ),
    var("%msg0", ElemType::Ud, 1, false),
    var("%scratchloc", ElemType::Uq, 1, false),
];

/// The first `.version` major number whose modules no longer know the 2.x-only variables.
pub const VERSION_WITHOUT_2X_VARIABLES: u32 = 3;

/// The compiler's numbered names of the predefined variables, in its order (`V0` is `%null`,
/// `V7` is `%r0`): its dumps declare them so (`.decl V0 v_type=G v_name=%null`) and its parser
/// accepts them wherever the `%` name goes; a declaration of one of these names is a
/// redeclaration to it.
pub const NUMBERED_PREDEFINED: &[&str] = &[
    "%null",
    "%thread_x",
    "%thread_y",
    "%group_id_x",
    "%group_id_y",
    "%group_id_z",
    "%tsc",
    "%r0",
    "%arg",
    "%retval",
    "%sp",
    "%fp",
    "%hw_id",
    "%sr0",
    "%cr0",
    "%ce0",
    "%dbg0",
    "%color",
    "%impl_arg_buf_ptr",
    "%local_id_buf_ptr",
    "%msg0",
    "%scratchloc",
];

/// The `%` name a numbered name (`V0`, canonical decimal) stands for.
pub fn numbered_predefined(name: &str) -> Option<&'static str> {
    let digits = name.strip_prefix('V')?;
    let canonical = digits == "0" || !digits.starts_with('0');
    if digits.is_empty() || !canonical || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    NUMBERED_PREDEFINED
        .get(digits.parse::<usize>().ok()?)
        .copied()
}

/// The predefined general variable of `name`, in any case.
pub fn predefined(name: &str) -> Option<&'static Predefined> {
    if !name.starts_with('%') {
        return None;
    }
    PREDEFINED
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
}

/// The predefined surfaces and their binding-table numbers: `%slm` (T0, shared local memory),
/// T1 (stack), T2, `TSS` (T3, scratch), `%bss` (T4, bindless), `%scratch` (T5, stateless).
pub const PREDEFINED_SURFACES: &[(&str, u32)] = &[
    ("%slm", 0),
    ("T0", 0),
    ("T1", 1),
    ("T2", 2),
    ("TSS", 3),
    ("T3", 3),
    ("%bss", 4),
    ("T4", 4),
    ("%scratch", 5),
    ("T5", 5),
];

/// The first binding-table number of a launch-bound surface (`T6`).
pub const FIRST_USER_SURFACE: u32 = 6;

/// The largest binding-table number (`T255`): an index is one byte.
pub const MAX_SURFACE: u32 = 255;

/// The predefined sampler (`S31`, bindless).
pub const PREDEFINED_SAMPLERS: &[&str] = &["S31"];

/// `n` of a surface written `Tn` in canonical decimal (`T06` is no such name), `0..=255`.
pub fn surface_number(name: &str) -> Option<u32> {
    let digits = name.strip_prefix('T')?;
    let canonical = digits == "0" || !digits.starts_with('0');
    if digits.is_empty() || !canonical || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|n| *n <= MAX_SURFACE)
}

/// The binding-table number of a surface name that needs no declaration: a predefined surface
/// (`%slm`, `%bss`, `TSS` in any case for the `%` names) or `Tn`. The compiler knows `T0`..`T5`
/// only: a user surface `T6`.. needs a `.decl` there, which the checker requires when a platform
/// is named (see [`needs_declaration`]).
pub fn undeclared_surface(name: &str) -> Option<u32> {
    PREDEFINED_SURFACES
        .iter()
        .find(|(n, _)| {
            if n.starts_with('%') {
                n.eq_ignore_ascii_case(name)
            } else {
                *n == name
            }
        })
        .map(|(_, number)| *number)
        .or_else(|| surface_number(name))
}

/// Whether a surface name that [`undeclared_surface`] knows needs a `.decl` for the compiler (a
/// user surface `Tn`, n >= 6: GenX_IR reports `T6: undefined surface variable`).
pub fn needs_declaration(surface_number: u32) -> bool {
    surface_number >= FIRST_USER_SURFACE
}

/// Whether `name` is the predefined sampler.
pub fn is_predefined_sampler(name: &str) -> bool {
    PREDEFINED_SAMPLERS.contains(&name)
}

/// Whether `name` is a placeholder of inline assembly (`%0`, `%[name]`, `$0`): bound to a
/// kernel argument by whoever embeds the text, not declared in it.
pub fn is_placeholder(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    name.strip_prefix('%')
        .is_some_and(|r| digits(r) || r.starts_with('['))
        || name.strip_prefix('$').is_some_and(digits)
}

// ---------------------------------------------------------------------------------------------
// Declarations

/// Most elements of a general variable: 256 x GRF size elements (the verifier's
/// `getMaxVariableSize`; 8192 with 32-byte GRFs, 16384 with 64-byte GRFs).
pub fn max_general_elements(grf_bytes: u32) -> u32 {
    256 * grf_bytes
}

/// Types no variable may have (they exist only as immediates, or as predicates).
pub const NON_VARIABLE_TYPES: [ElemType; 4] =
    [ElemType::V, ElemType::Uv, ElemType::Vf, ElemType::Bool];

/// Most elements of an address variable (the address registers of every platform but
/// Xe3P with its SIMD32 option).
pub const MAX_ADDRESS_ELEMENTS: u32 = 16;

/// The element counts a predicate variable may have.
pub const PREDICATE_SIZES: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// The directives the compiler's lexer reads besides those the parser gives a statement of its
/// own (`.version`, `.kernel`, `.function`, `.global_function`, `.kernel_attr`, `.input`,
/// `.decl`): `.funcdecl`, `.file` and `.loc` (the FILE and LOC instructions' other spelling), and
/// every name starting with [`IMPLICIT_DIRECTIVE_PREFIX`] (visa/CISA.l:213-227 at 98fff71643f1).
/// Any other `.name` is a syntax error there.
pub const OTHER_DIRECTIVES: &[&str] = &["funcdecl", "file", "loc"];

/// The prefix of the implicit-input directives (`.implicit_LOCAL_ID`, ...).
pub const IMPLICIT_DIRECTIVE_PREFIX: &str = "implicit";

/// Whether the compiler's lexer knows the directive `.name` ([`OTHER_DIRECTIVES`]).
pub fn is_known_directive(name: &str) -> bool {
    OTHER_DIRECTIVES.contains(&name) || name.starts_with(IMPLICIT_DIRECTIVE_PREFIX)
}

/// One `align=` value of a variable declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alignment {
    /// The names `align=` takes for it; the first is the one the compiler prints.
    pub names: &'static [&'static str],
    /// Its size in bytes (0 for the GRF-sized ones).
    pub bytes: u32,
    /// Its size in GRFs (0 for the byte-sized ones).
    pub grfs: u32,
}

/// The variable alignments in the verifier's order (`VISA_Align`, weakest first), which is also
/// their binary code in an object file's `var_info.bit_properties` (visa/include/
/// visa_igc_common_header.h, `ParseAlign` of visa/CISA.y). A number of bytes written as
/// `align=` is the alignment of that many bytes (32 is `hword`, 64 `wordx32`).
pub const ALIGNMENTS: &[Alignment] = &[
    Alignment::of_bytes(&["byte"], 1),
    Alignment::of_bytes(&["word"], 2),
    Alignment::of_bytes(&["dword"], 4),
    Alignment::of_bytes(&["qword"], 8),
    Alignment::of_bytes(&["oword"], 16),
    Alignment::of_grfs(&["GRF"], 1),
    Alignment::of_grfs(&["GRFx2", "2GRF"], 2),
    Alignment::of_bytes(&["hword"], 32),
    Alignment::of_bytes(&["wordx32", "32word"], 64),
    Alignment::of_bytes(&["wordx64", "64word"], 128),
];

impl Alignment {
    const fn of_bytes(names: &'static [&'static str], bytes: u32) -> Alignment {
        Alignment {
            names,
            bytes,
            grfs: 0,
        }
    }

    const fn of_grfs(names: &'static [&'static str], grfs: u32) -> Alignment {
        Alignment {
            names,
            bytes: 0,
            grfs,
        }
    }
}

/// The alignment an `align=` name stands for (case-insensitive), with its place in
/// [`ALIGNMENTS`].
pub fn alignment_named(name: &str) -> Option<(usize, &'static Alignment)> {
    ALIGNMENTS
        .iter()
        .enumerate()
        .find(|(_, a)| a.names.iter().any(|n| n.eq_ignore_ascii_case(name)))
}

/// The place of an `align=` value (a name or a number of bytes) in [`ALIGNMENTS`].
pub fn align_rank(written: &str) -> Option<usize> {
    alignment_named(written).map(|(rank, _)| rank).or_else(|| {
        let bytes = written.parse::<u32>().ok().filter(|b| *b > 0)?;
        ALIGNMENTS.iter().position(|a| a.bytes == bytes)
    })
}

/// The alignment a variable's type asks for, as a place in [`ALIGNMENTS`]
/// (`getTypeAlignment`, visa/Common_ISA.h:162-180 at 98fff71643f1, the same in IGC 1.0.12504): a
/// variable of a GRF or more `wordx32` with 64-byte GRFs and `hword` with 32-byte ones; a smaller
/// one `dword` or `qword` for 4- and 8-byte types and `word` for the others.
pub fn type_align_rank(ty: ElemType, num_elts: u32, grf_bytes: u32) -> usize {
    let named = |name: &str| align_rank(name).unwrap_or(0);
    if u64::from(num_elts) * u64::from(ty.size()) >= u64::from(grf_bytes) {
        named(if grf_bytes == 64 { "wordx32" } else { "hword" })
    } else {
        match ty.size() {
            4 => named("dword"),
            8 => named("qword"),
            _ => named("word"),
        }
    }
}

/// The `.input`s of a kernel end before this many GRFs (`End >= GRF size * (256 - 1)` is an
/// error in the verifier's kernel-header pass, visa/IsaVerification.cpp:4043 of IGC 1.0.12504).
pub const INPUT_GRF_LIMIT: u32 = 255;

/// How many of the first user surfaces the verifier leaves unchecked (it starts its loop at the
/// number of predefined surfaces, [`FIRST_USER_SURFACE`], over the user surfaces' indices).
pub const UNCHECKED_USER_SURFACES: u32 = FIRST_USER_SURFACE;

/// Most elements of a surface or sampler variable.
pub const MAX_STATE_ELEMENTS: u32 = 128;

// ---------------------------------------------------------------------------------------------
// Execution sizes and regions (upstream 5_operands; the verifier's `verifyRegion`)

/// Execution sizes.
pub const EXEC_SIZES: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// Region widths.
pub const WIDTHS: [u16; 5] = [1, 2, 4, 8, 16];

/// Region vertical strides.
pub const VSTRIDES: [u16; 7] = [0, 1, 2, 4, 8, 16, 32];

/// Region horizontal strides (a destination's may not be 0).
pub const HSTRIDES: [u16; 4] = [0, 1, 2, 4];

/// Mask offset (M1 = 0 ... M8 = 28) plus execution size may not exceed this many channels.
pub const MAX_CHANNELS: u32 = 32;

// ---- Binary numbering (the object format, spec/OBJECT_FORMAT.md) ----

/// The predefined general variables by their number in the binary form (version 4.1): `V0`
/// (`%null`) to `V20` (`%msg0`), the first entries of the one numbered list
/// [`NUMBERED_PREDEFINED`] (`%scratchloc`, `V21`, is a newer compiler's); numbers 21 to 31 are
/// reserved and declared variables start at [`FIRST_DECLARED_VARIABLE`]. Other spellings (`%tm`
/// for `%tsc`) are in [`PREDEFINED`].
pub const PREDEFINED_VARIABLE_NUMBERS: &[&str] = NUMBERED_PREDEFINED.split_at(21).0;

/// The binary number of the first declared general variable.
pub const FIRST_DECLARED_VARIABLE: u32 = 32;

/// The predefined surfaces by binary number, as the compiler names them in an object's string
/// pool (`T0` .. `T5`).
pub const PREDEFINED_SURFACE_NAMES: [&str; 6] = ["%slm", "T1", "T2", "TSS", "%bss", "%scratch"];

/// Kernel and variable attributes whose value is an integer (the compiler's attribute table);
/// every other attribute with a value holds a string, and one without a value is a flag.
pub const INTEGER_ATTRIBUTES: &[&str] = &[
    "Target",
    "SLMSize",
    "SpillMemOffset",
    "ArgSize",
    "RetValSize",
    "PerThreadInputSize",
    "SimdSize",
    "Scope",
    "SurfaceUsage",
    "CrossThreadInputSize",
    "NBarrierCnt",
];

/// The `Target` attribute's values: its text spelling and its byte. A quoted `.kernel_attr
/// Target="..."` must be one of these (`CISA_attr_directive`, visa/BuildCISAIRImpl.cpp of IGC
/// 1.0.12504 and today); an integer is taken as is.
pub const TARGET_VALUES: [(&str, u8); 2] = [("cm", 0), ("3d", 1)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platforms_parse_by_any_of_their_names_and_know_their_grf_size() {
        assert_eq!(Platform::parse("PVC"), Some(Platform::Pvc));
        assert_eq!(Platform::parse("tgl"), Some(Platform::Tgllp));
        assert_eq!(Platform::parse("gen99"), None);
        assert_eq!(Platform::Dg2.grf_bytes(), 32);
        assert_eq!(Platform::Xe2.grf_bytes(), 64);
        assert!(Platform::Dg2 < Platform::Pvc);
    }

    #[test]
    fn surface_numbers_are_canonical_and_at_most_255() {
        assert_eq!(surface_number("T6"), Some(6));
        assert_eq!(surface_number("T255"), Some(255));
        assert_eq!(surface_number("T256"), None);
        assert_eq!(surface_number("T06"), None);
        assert_eq!(surface_number("T"), None);
        assert_eq!(undeclared_surface("%SLM"), Some(0));
        assert_eq!(undeclared_surface("TSS"), Some(3));
        assert_eq!(undeclared_surface("tss"), None);
    }

    #[test]
    fn predefined_names_match_in_any_case_and_tm_is_tsc() {
        let tm = predefined("%TM").expect("%tm is predefined");
        assert_eq!(tm.canonical(), "%tsc");
        assert_eq!(predefined("%arg").map(|p| p.num_elts(64)), Some(512));
        assert_eq!(predefined("%retval").map(|p| p.num_elts(32)), Some(96));
        assert!(predefined("null").is_none());
    }

    #[test]
    fn the_largest_general_variable_follows_the_grf_size() {
        assert_eq!(max_general_elements(32), 8192);
        assert_eq!(max_general_elements(64), 16384);
    }
}
