//! Inline vISA as users paste it into `isa!`: scope braces on instruction lines, `$N`
//! placeholders (the same rule as in assembly text), per-lane vectors of several components.

use visa::isa::ast::StmtKind;
use visa::runtime::{LoadOptions, Program};

/// The statements of a kernel, `{`/`}` for scopes and the canonical text of instructions.
fn statements(k: &visa::Kernel) -> Vec<String> {
    let module = k.module().expect("immediates fit");
    module
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::ScopeOpen => Some("{".to_string()),
            StmtKind::ScopeClose => Some("}".to_string()),
            StmtKind::Instr(i) => Some(visa::isa::text::format_instruction(i)),
            _ => None,
        })
        .collect()
}

#[test]
fn scope_braces_on_instruction_lines_run() {
    // The `}` closing a scope on the instruction's line, a scope opened before an instruction on
    // the same line, `} {` and a one-line scope; `T` is declared in two sibling scopes.
    let k = visa::isa! {
        kernel braces<16>(out: vector<d>, a: vector<d>) {
            .decl P1 v_type=P num_elts=16
            { .decl T v_type=G type=d num_elts=16 align=GRF
            add (M1, 16) T(0,0)<1> a(0,0)<1;1,0> 0x64:d
            cmp.lt (M1, 16) P1 a(0,0)<1;1,0> 0x8:d
            (P1) sel (M1_NM, 16) %0(0,0)<1> T(0,0)<1;1,0> 0x8:d} {
            .decl T v_type=G type=d num_elts=16 align=GRF
            { mul (M1, 16) T(0,0)<1> out(0,0)<1;1,0> 0x2:d }
            mov (M1, 16) out(0,0)<1> T(0,0)<1;1,0> }
        }
    };
    assert_eq!(
        statements(&k),
        [
            "{",
            "add (M1, 16) T(0,0)<1> a(0,0)<1;1,0> 0x64:d",
            "cmp.lt (M1, 16) P1 a(0,0)<1;1,0> 0x8:d",
            "(P1) sel (M1_NM, 16) out(0,0)<1> T(0,0)<1;1,0> 0x8:d",
            "}",
            "{",
            "{",
            "mul (M1, 16) T(0,0)<1> out(0,0)<1;1,0> 0x2:d",
            "}",
            "mov (M1, 16) out(0,0)<1> T(0,0)<1;1,0>",
            "}",
        ]
    );
    let a: Vec<i32> = (0..16).map(|i| i * 3 - 10).collect();
    let result = k
        .load()
        .expect("loads")
        .launch()
        .bind_vector("a", &a)
        .bind_vector("out", &[0i32; 16])
        .capture("out")
        .run()
        .expect("runs");
    // out = 2 * (a < 8 ? a + 100 : 8), computed independently of the kernel.
    let expected: Vec<i32> = a
        .iter()
        .map(|&x| 2 * if x < 8 { x + 100 } else { 8 })
        .collect();
    assert_eq!(result.vector::<i32>("out").expect("captured"), expected);
}

#[test]
fn a_scope_brace_in_text_and_in_isa_gives_the_same_module() {
    let k = visa::isa! {
        kernel same<8>(v: vector<ud>) {
            { mov (M1, 8) v(0,0)<1> 0x5:ud }
        }
    };
    let text = "\
.decl v v_type=G type=ud num_elts=8 align=GRF
{ mov (M1, 8) v(0,0)<1> 0x5:ud }
";
    let from_text = visa::isa::text::parse(text).expect("parses");
    let from_macro = k.module().expect("fits");
    let strip = |m: &visa::isa::ast::Module| visa::isa::text::format_module(m);
    assert_eq!(strip(&from_macro), strip(&from_text));
    let program = Program::load(&from_text, &LoadOptions::default()).expect("loads");
    let result = visa::runtime::Launch::new(&program)
        .simd(8)
        .bind_vector("v", &[0u32; 8])
        .capture("v")
        .run()
        .expect("runs");
    assert_eq!(result.vector::<u32>("v").expect("captured"), [5; 8]);
}

/// Inputs of the `$N` kernels and the values they must give, computed here.
const SET: [u32; 8] = [1, 1, 0, 1, 0, 0, 1, 0];

fn dollar_inputs() -> (Vec<u32>, Vec<u32>) {
    ((0..8).map(|i| i * 7 + 1).collect(), (100..108).collect())
}

/// `$0` = 1, then `$1 + $2` where `$3` is set; `$4` = `$0` times lane 4 of `$1`.
fn dollar_expected() -> (Vec<u32>, Vec<u32>) {
    let (a, b) = dollar_inputs();
    let out: Vec<u32> = (0..8)
        .map(|i| if SET[i] == 1 { a[i] + b[i] } else { 1 })
        .collect();
    let scaled = out.iter().map(|v| v * a[4]).collect();
    (out, scaled)
}

const DOLLAR_TEXT: &str = "\
.decl P1 v_type=P num_elts=8
mov (M1, 8) $0 0x1:ud
setp (M1_NM, 8) P1 $3
(P1) add (M1_NM, 8) $0 $1 $2
mul (M1, 8) $4(0,0)<1> $0(0,0)<1;1,0> $1(0,4)<0;1,0>
";

#[test]
fn dollar_placeholders_mean_the_same_in_text() {
    let mut options = LoadOptions::default();
    for name in ["$0", "$1", "$2", "$3", "$4"] {
        options = options.param(name, visa::isa::ast::ElemType::Ud, 8);
    }
    let program = Program::from_text(DOLLAR_TEXT, &options).expect("loads");
    let (a, b) = dollar_inputs();
    let result = visa::runtime::Launch::new(&program)
        .simd(8)
        .bind_vector("$0", &[0u32; 8])
        .bind_vector("$1", &a)
        .bind_vector("$2", &b)
        .bind_vector("$3", &SET)
        .bind_vector("$4", &[0u32; 8])
        .capture("$0")
        .capture("$4")
        .run()
        .expect("runs");
    let (out, scaled) = dollar_expected();
    assert_eq!(result.vector::<u32>("$0").expect("captured"), out);
    assert_eq!(result.vector::<u32>("$4").expect("captured"), scaled);
}

#[test]
fn dollar_placeholders_mean_the_same_in_isa() {
    // The body of DOLLAR_TEXT: `$N` alone is the whole operand, `$N(r,c)<...>` names the
    // variable.
    let k = visa::isa! {
        kernel dollar<8>(out: vector<ud>, a: vector<ud>, b: vector<ud>, mask: vector<ud>, scaled: vector<ud>) {
            .decl P1 v_type=P num_elts=8
            mov (M1, 8) $0 0x1:ud
            setp (M1_NM, 8) P1 $3
            (P1) add (M1_NM, 8) $0 $1 $2
            mul (M1, 8) $4(0,0)<1> $0(0,0)<1;1,0> $1(0,4)<0;1,0>
        }
    };
    assert_eq!(
        statements(&k),
        [
            "mov (M1, 8) out(0,0)<1> 0x1:ud",
            "setp (M1_NM, 8) P1 mask(0,0)<1;1,0>",
            "(P1) add (M1_NM, 8) out(0,0)<1> a(0,0)<1;1,0> b(0,0)<1;1,0>",
            "mul (M1, 8) scaled(0,0)<1> out(0,0)<1;1,0> a(0,4)<0;1,0>",
        ]
    );
    let (a, b) = dollar_inputs();
    let result = k
        .load()
        .expect("loads")
        .launch()
        .bind_vector("out", &[0u32; 8])
        .bind_vector("a", &a)
        .bind_vector("b", &b)
        .bind_vector("mask", &SET)
        .bind_vector("scaled", &[0u32; 8])
        .capture("out")
        .capture("scaled")
        .run()
        .expect("runs");
    let (out, scaled) = dollar_expected();
    assert_eq!(result.vector::<u32>("out").expect("captured"), out);
    assert_eq!(result.vector::<u32>("scaled").expect("captured"), scaled);
}

#[test]
fn dollar_raw_operands_in_text_and_in_isa() {
    // `$0.0` names the pointer variable with a raw offset; `$0` alone in a raw field is the same
    // operand; `$1(0,0)<0;1,0>` reads the uniform.
    let text = "\
.decl V v_type=G type=d num_elts=8 align=GRF
svm_gather.4.1 (M1, 8) $0.0 V.0
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> $1(0,0)<0;1,0>
svm_scatter.4.1 (M1, 8) $0 V.0
";
    let k = visa::isa! {
        kernel raw<8>(p: svm, k: uniform<d>) {
            .decl V v_type=G type=d num_elts=8 align=GRF
            svm_gather.4.1 (M1, 8) $0.0 V.0
            add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> $1(0,0)<0;1,0>
            svm_scatter.4.1 (M1, 8) $0 V.0
        }
    };
    assert_eq!(
        statements(&k),
        [
            "svm_gather.4.1 (M1, 8) p.0 V.0",
            "add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> k(0,0)<0;1,0>",
            "svm_scatter.4.1 (M1, 8) p.0 V.0",
        ]
    );
    let data: Vec<i32> = (0..8).map(|i| i * i - 20).collect();
    let expected: Vec<i32> = data.iter().map(|v| v - 9).collect();

    let options = LoadOptions::default()
        .param("$0", visa::isa::ast::ElemType::Uq, 8)
        .param("$1", visa::isa::ast::ElemType::D, 1);
    let program = Program::from_text(text, &options).expect("loads");
    let mut svm = visa::runtime::Svm::new();
    let base = svm.alloc_from(&data);
    visa::runtime::Launch::new(&program)
        .simd(8)
        .svm(&svm)
        .bind_svm_lanes("$0", base, 4)
        .bind_scalar("$1", -9i32)
        .run()
        .expect("runs");
    assert_eq!(svm.read_vec::<i32>(base, 8).expect("reads"), expected);

    let mut svm = visa::runtime::Svm::new();
    let base = svm.alloc_from(&data);
    k.load()
        .expect("loads")
        .launch()
        .svm(&svm)
        .bind_svm_lanes("p", base, 4)
        .bind_scalar("k", -9i32)
        .run()
        .expect("runs");
    assert_eq!(svm.read_vec::<i32>(base, 8).expect("reads"), expected);
}

#[test]
fn a_vector_of_two_words_per_lane_runs() {
    // A per-lane `short2` (x, y): out = 3x - y, and the pair is written back swapped.
    let k = visa::isa! {
        kernel pairs<8>(pair: vector<w, 2>, out: vector<w>) {
            .decl T v_type=G type=w num_elts=8 align=GRF
            mul (M1, 8) T(0,0)<1> pair(0,0)<1;1,0> 0x3:w
            add (M1, 8) out(0,0)<1> T(0,0)<1;1,0> (-)pair(0,8)<1;1,0>
            mov (M1, 8) T(0,0)<1> pair(0,0)<1;1,0>
            mov (M1, 8) pair(0,0)<1> pair(0,8)<1;1,0>
            mov (M1, 8) pair(0,8)<1> T(0,0)<1;1,0>
        }
    };
    let pair_param = &k.params()[0];
    assert_eq!(pair_param.components, 2);
    let module = k.module().expect("fits");
    let StmtKind::Decl(decl) = &module.stmts[0].kind else {
        panic!("the parameter's declaration comes first")
    };
    assert!(
        matches!(
            decl.kind,
            visa::isa::ast::DeclKind::General { num_elts: 16, .. }
        ),
        "SIMD 8 x 2 components: {decl:?}"
    );
    // Two threads of 8: 16 work-items, each with (x, y).
    let values: Vec<i16> = (0..16i16).flat_map(|i| [i * 5 - 30, 7 - i]).collect();
    let result = k
        .load()
        .expect("loads")
        .launch()
        .groups(2)
        .bind_vector_components("pair", 2, &values)
        .bind_vector("out", &[0i16; 16])
        .run()
        .expect("runs");
    let expected: Vec<i16> = values.chunks(2).map(|p| 3 * p[0] - p[1]).collect();
    assert_eq!(result.vector::<i16>("out").expect("captured"), expected);
    let swapped: Vec<i16> = values.chunks(2).flat_map(|p| [p[1], p[0]]).collect();
    let read: Vec<i16> = result.vector_components("pair", 2).expect("captured");
    assert_eq!(read, swapped);
}

#[test]
fn a_vector_of_four_signed_bytes_per_lane_sign_extends() {
    // A per-lane `char4`: sum = c0 + c1 + c2 + c3, each byte sign-extended to d.
    let k = visa::isa! {
        kernel sum4<16>(c: vector<b, 4>, sum: vector<d>) {
            .decl T v_type=G type=d num_elts=16 align=GRF
            mov (M1, 16) sum(0,0)<1> c(0,0)<1;1,0>
            mov (M1, 16) T(0,0)<1> c(0,16)<1;1,0>
            add (M1, 16) sum(0,0)<1> sum(0,0)<1;1,0> T(0,0)<1;1,0>
            mov (M1, 16) T(0,0)<1> c(1,0)<1;1,0>
            add (M1, 16) sum(0,0)<1> sum(0,0)<1;1,0> T(0,0)<1;1,0>
            mov (M1, 16) T(0,0)<1> c(1,16)<1;1,0>
            add (M1, 16) sum(0,0)<1> sum(0,0)<1;1,0> T(0,0)<1;1,0>
        }
    };
    assert_eq!(k.params()[0].components, 4);
    let bytes: Vec<i8> = (0..64i32)
        .map(|i| ((i * 37 - 1000) % 256 - 128) as i8)
        .collect();
    let result = k
        .load()
        .expect("loads")
        .launch()
        .groups(1)
        .bind_vector_components("c", 4, &bytes)
        .bind_vector("sum", &[0i32; 16])
        .run()
        .expect("runs");
    let expected: Vec<i32> = bytes
        .chunks(4)
        .map(|c| c.iter().map(|&b| i32::from(b)).sum())
        .collect();
    assert!(expected.iter().any(|&v| v < 0), "negative sums are covered");
    assert_eq!(result.vector::<i32>("sum").expect("captured"), expected);
}

#[test]
fn a_vector_of_four_bytes_per_lane_runs() {
    // A per-lane `uchar4` (r, g, b, a): gray = r + 2g + b + 3a; a is replaced by g.
    let k = visa::isa! {
        kernel rgba<16>(px: vector<ub, 4>, gray: vector<d>) {
            .decl C v_type=G type=d num_elts=16 align=GRF
            mov (M1, 16) gray(0,0)<1> px(0,0)<1;1,0>
            mov (M1, 16) C(0,0)<1> px(0,16)<1;1,0>
            mul (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x2:d
            add (M1, 16) gray(0,0)<1> gray(0,0)<1;1,0> C(0,0)<1;1,0>
            mov (M1, 16) C(0,0)<1> px(1,0)<1;1,0>
            add (M1, 16) gray(0,0)<1> gray(0,0)<1;1,0> C(0,0)<1;1,0>
            mov (M1, 16) C(0,0)<1> px(1,16)<1;1,0>
            mul (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x3:d
            add (M1, 16) gray(0,0)<1> gray(0,0)<1;1,0> C(0,0)<1;1,0>
            mov (M1, 16) px(1,16)<1> px(0,16)<1;1,0>
        }
    };
    assert_eq!(k.params()[0].components, 4);
    // Three threads of 16: 48 work-items, 4 bytes each.
    let pixels: Vec<u8> = (0..48u32)
        .flat_map(|i| {
            [
                (i * 5) as u8,
                (255 - i) as u8,
                (i * i % 256) as u8,
                (i * 3 + 1) as u8,
            ]
        })
        .collect();
    let result = k
        .load()
        .expect("loads")
        .launch()
        .groups(3)
        .bind_vector_components("px", 4, &pixels)
        .bind_vector("gray", &[0i32; 48])
        .run()
        .expect("runs");
    let expected: Vec<i32> = pixels
        .chunks(4)
        .map(|p| i32::from(p[0]) + 2 * i32::from(p[1]) + i32::from(p[2]) + 3 * i32::from(p[3]))
        .collect();
    assert_eq!(result.vector::<i32>("gray").expect("captured"), expected);
    let rewritten: Vec<u8> = pixels
        .chunks(4)
        .flat_map(|p| [p[0], p[1], p[2], p[1]])
        .collect();
    let read: Vec<u8> = result.vector_components("px", 4).expect("captured");
    assert_eq!(read, rewritten);
}

#[test]
fn a_wrong_number_of_components_is_a_binding_error() {
    let k = visa::isa! {
        kernel pairs<8>(pair: vector<w, 2>, one: vector<w>) {
            mov (M1, 8) one(0,0)<1> pair(0,8)<1;1,0>
        }
    };
    let loaded = k.load().expect("loads");
    let error = |launch: visa::runtime::Launch<'_>| {
        launch
            .bind_vector("one", &[0i16; 8])
            .run()
            .expect_err("a bad binding")
            .to_string()
    };
    // 15 values for 8 work-items x 2 components.
    assert_eq!(
        error(
            loaded
                .launch()
                .bind_vector_components("pair", 2, &[0i16; 15])
        ),
        "binding 'pair': 15 values bound, the launch has 8 work-items x 2 components = 16 values"
    );
    // Two threads need 32 values.
    assert_eq!(
        error(
            loaded
                .launch()
                .groups(2)
                .bind_vector_components("pair", 2, &[0i16; 16])
        ),
        "binding 'pair': 16 values bound, the launch has 16 work-items x 2 components = 32 values"
    );
    // Four components do not fit a variable of SIMD x 2 elements.
    assert_eq!(
        error(
            loaded
                .launch()
                .bind_vector_components("pair", 4, &[0i16; 32])
        ),
        "binding 'pair': the variable has 16 elements, fewer than SIMD 8 x 4 components = 32"
    );
    assert_eq!(
        error(
            loaded
                .launch()
                .bind_vector_components("pair", 0, &[0i16; 0])
        ),
        "binding 'pair': a per-lane vector needs at least one component"
    );
}
