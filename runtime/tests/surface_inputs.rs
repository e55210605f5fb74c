//! `.input` of surface variables, the form of compiler-printed kernels (`.decl T6 v_type=T
//! num_elts=1` then `.input T6 offset=64 size=4`): the kernel loads, and its surface and general
//! inputs are bound by name.

mod common;

use common::program;
use visa_runtime::{Buffer, Launch, LoadOptions, Program};

/// In the style of the compiler's printed kernels: a header, declarations of surface and general
/// variables, their `.input` payload offsets, then the body. Each work-item `i` reads dword
/// `i` of T6, computes `x * SCALE + BIAS` and writes it to dword `i` of OUT.
const PRINTED: &str = r#"
.version 3.6
.kernel "scale_surface"
.decl T6 v_type=T num_elts=1
.decl OUT v_type=T num_elts=1
.decl SCALE v_type=G type=d num_elts=1 align=dword
.decl BIAS v_type=G type=d num_elts=1 align=dword
.decl OFFSETS v_type=G type=ud num_elts=16 align=GRF
.decl V0 v_type=G type=d num_elts=16 align=GRF
.input T6 offset=64 size=4
.input OUT offset=68 size=4
.input SCALE offset=72 size=4
.input BIAS offset=76 size=4
.input OFFSETS offset=96 size=64
.kernel_attr SimdSize=16
.kernel_attr OutputAsmPath=scale_surface.asm
gather_scaled.4 (M1, 16) T6 0x0:ud OFFSETS.0 V0.0
mad (M1, 16) V0(0,0)<1> V0(0,0)<1;1,0> SCALE(0,0)<0;1,0> BIAS(0,0)<0;1,0>
scatter_scaled.4 (M1, 16) OUT 0x0:ud OFFSETS.0 V0.0
"#;

#[test]
fn a_printed_kernel_binds_surface_and_general_inputs_by_name() {
    let p = program(PRINTED);
    let groups = 3u32;
    let n = 16 * groups as usize;
    let input: Vec<i32> = (0..n as i32).map(|i| i * i - 300).collect();
    let offsets: Vec<u32> = (0..n as u32).map(|i| 4 * i).collect();
    let src = Buffer::from_slice(&input);
    let out = Buffer::zeroed(4 * n);
    Launch::new(&p)
        .groups(groups)
        .bind_surface("T6", &src)
        .bind_surface("OUT", &out)
        .bind_scalar("SCALE", -3i32)
        .bind_scalar("BIAS", 1000i32)
        .bind_vector("OFFSETS", &offsets)
        .run()
        .unwrap();
    let expected: Vec<i32> = input.iter().map(|x| x * -3 + 1000).collect();
    assert_eq!(out.to_vec::<i32>(), expected);
    // The input buffer is untouched.
    assert_eq!(src.to_vec::<i32>(), input);
}

#[test]
fn sampler_inputs_load_and_undeclared_inputs_are_errors() {
    // A sampler input is valid (it holds a sampler index like a surface input holds a
    // binding-table number); the kernel does not use it.
    let with_sampler = "
.decl S0 v_type=S num_elts=1
.decl V v_type=G type=ud num_elts=8 align=GRF
.input S0 offset=32 size=4
.input V offset=64 size=32
add (M1, 8) V(0,0)<1> V(0,0)<1;1,0> 0x1:ud
";
    let p = program(with_sampler);
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("V", &[1u32, 2, 3, 4, 5, 6, 7, 8])
        .run()
        .unwrap();
    assert_eq!(r.vector::<u32>("V").unwrap(), vec![2, 3, 4, 5, 6, 7, 8, 9]);

    // A surface declared inside a scope is not a kernel input; neither is an undeclared name.
    for (src, name, line) in [
        (
            "{\n.decl T6 v_type=T num_elts=1\n}\n.input T6 offset=64 size=4\n",
            "T6",
            4,
        ),
        (".input T7 offset=64 size=4\n", "T7", 1),
    ] {
        let error = Program::from_text(src, &LoadOptions::default()).unwrap_err();
        assert_eq!(
            error.message,
            format!("input '{name}' is not declared"),
            "{src}"
        );
        assert_eq!(error.span.line, line, "{error:?}");
    }
}
