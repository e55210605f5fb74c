//! `divm` / `sqrtm` (DIVM.md, SQRTM.md): IEEE-754 quotients and square roots, compared with
//! Rust's own IEEE `f32` / `f64` division and `sqrt` (correctly rounded to nearest even).

mod common;

use common::program;
use visa_runtime::{Element, Launch, LoadOptions, Program};

/// Keep DF and F denormals (`%cr0` bits 6 and 7), as upstream requires for IEEE results.
const IEEE_CR0: u32 = 0b11 << 6;

fn run<T: Element + Copy>(ty: &str, line: &str, a: &[T; 8], b: &[T; 8]) -> Vec<T> {
    let p = program(&format!(
        ".decl A v_type=G type={ty} num_elts=8 align=GRF
.decl B v_type=G type={ty} num_elts=8 align=GRF
.decl D v_type=G type={ty} num_elts=8 align=GRF
{line}
"
    ));
    Launch::new(&p)
        .simd(8)
        .cr0(IEEE_CR0)
        .bind_vector("A", a)
        .bind_vector("B", b)
        .capture("D")
        .run()
        .unwrap()
        .vector::<T>("D")
        .unwrap()
}

fn same_f32(got: &[f32], want: &[f32]) {
    for (g, w) in got.iter().zip(want) {
        assert!(
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
            "{g} vs {w}"
        );
    }
}

#[test]
fn divm_and_sqrtm_are_ieee_in_f_and_df() {
    let a = [1.0f32, 2.0, 1e-40, -7.5, 0.0, f32::INFINITY, 3.0, 1e38];
    let b = [3.0f32, 7.0, 3.0, 0.1, 0.0, 2.0, -0.0, 1e-3];
    let q = run(
        "f",
        "divm (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
        &a,
        &b,
    );
    same_f32(
        &q,
        &a.iter().zip(&b).map(|(x, y)| x / y).collect::<Vec<_>>(),
    );
    let s = run("f", "sqrtm (M1, 8) D(0,0)<1> A(0,0)<1;1,0>", &a, &b);
    same_f32(&s, &a.iter().map(|x| x.sqrt()).collect::<Vec<_>>());

    let a = [1.0f64, 2.0, 1e-310, -7.5, 10.0, 1e300, 3.0, 0.2];
    let b = [3.0f64, 7.0, 3.0, 0.1, 3.0, 1e-10, 9.0, 0.7];
    let q = run(
        "df",
        "divm (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>",
        &a,
        &b,
    );
    let want: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x / y).collect();
    assert_eq!(q, want);
    let s = run("df", "sqrtm (M1, 8) D(0,0)<1> B(0,0)<1;1,0>", &a, &b);
    let want: Vec<f64> = b.iter().map(|y| y.sqrt()).collect();
    assert_eq!(s, want);
}

#[test]
fn only_f_and_df_without_modifiers_are_accepted() {
    let load = |ty: &str, line: &str| {
        Program::from_text(
            &format!(
                ".decl A v_type=G type={ty} num_elts=8 align=GRF\n\
                 .decl D v_type=G type={ty} num_elts=8 align=GRF\n{line}\n"
            ),
            &LoadOptions::default(),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    for ty in ["hf", "d", "ud"] {
        let err = load(ty, "divm (M1, 8) D(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0>").unwrap_err();
        assert!(
            err.contains("divm: <dst> has type") && err.contains("supported types are DF, F"),
            "{ty}: {err}"
        );
        let err = load(ty, "sqrtm (M1, 8) D(0,0)<1> A(0,0)<1;1,0>").unwrap_err();
        assert!(
            err.contains("sqrtm: <dst> has type") && err.contains("supported types are DF, F"),
            "{ty}: {err}"
        );
    }
    let err = load("f", "sqrtm (M1, 8) D(0,0)<1> (abs)A(0,0)<1;1,0>").unwrap_err();
    assert!(err.contains("no source modifiers"), "{err}");
    load("f", "sqrtm.sat (M1, 8) D(0,0)<1> A(0,0)<1;1,0>").unwrap();
}
