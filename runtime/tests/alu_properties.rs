//! Random inputs through the integer ALU, compared with Rust's own arithmetic.

mod common;

use common::program;
use proptest::prelude::*;
use visa_runtime::{Launch, Program};

/// An ALU mnemonic and what it computes.
type Reference = (&'static str, fn(i32, i32) -> i32);

const OPS: &[Reference] = &[
    ("add", |a, b| a.wrapping_add(b)),
    ("mul", |a, b| a.wrapping_mul(b)),
    ("and", |a, b| a & b),
    ("or", |a, b| a | b),
    ("xor", |a, b| a ^ b),
    ("shl", |a, b| a.wrapping_shl(b as u32 & 31)),
    ("asr", |a, b| a >> (b as u32 & 31)),
    ("shr", |a, b| ((a as u32) >> (b as u32 & 31)) as i32),
    ("min", |a, b| a.min(b)),
    ("max", |a, b| a.max(b)),
    ("avg", |a, b| {
        ((i64::from(a) + i64::from(b) + 1) >> 1) as i32
    }),
    ("mulh", |a, b| ((i64::from(a) * i64::from(b)) >> 32) as i32),
];

fn programs() -> Vec<Program> {
    OPS.iter()
        .map(|(op, _)| {
            // SHR's type map is unsigned only: it reads the same bits through UD aliases.
            let u = if *op == "shr" { "U" } else { "" };
            program(&format!(
                "
.decl A v_type=G type=d num_elts=8 align=GRF
.decl B v_type=G type=d num_elts=8 align=GRF
.decl C v_type=G type=d num_elts=8 align=GRF
.decl AU v_type=G type=ud num_elts=8 alias=<A, 0>
.decl BU v_type=G type=ud num_elts=8 alias=<B, 0>
.decl CU v_type=G type=ud num_elts=8 alias=<C, 0>
{op} (M1, 8) C{u}(0,0)<1> A{u}(0,0)<1;1,0> B{u}(0,0)<1;1,0>
"
            ))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn integer_ops_match_rust(a in prop::array::uniform8(any::<i32>()), b in prop::array::uniform8(any::<i32>())) {
        let programs = programs();
        for ((name, reference), p) in OPS.iter().zip(&programs) {
            let r = Launch::new(p)
                .simd(8)
                .bind_vector("A", &a)
                .bind_vector("B", &b)
                .capture("C")
                .run()
                .unwrap();
            let expected: Vec<i32> = a.iter().zip(b).map(|(x, y)| reference(*x, y)).collect();
            prop_assert_eq!(r.vector::<i32>("C").unwrap(), expected, "{}", name);
        }
    }
}
