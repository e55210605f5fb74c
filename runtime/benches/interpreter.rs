//! Interpreter throughput: a SIMD16 loop of ALU instructions, and the SVM example kernel.

use criterion::{Criterion, criterion_group, criterion_main};
use visa_runtime::{Launch, LoadOptions, Program, Svm};

const LOOP: &str = "
.decl I v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
mov (M1, 16) I(0,0)<1> 0x0:d
mov (M1, 16) ACC(0,0)<1> 0x0:d
LOOP:
mad (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3:d I(0,0)<1;1,0>
add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 I(0,0)<1;1,0> 0x3e8:d
(P1) goto (M1, 16) LOOP
";

fn alu_loop(c: &mut Criterion) {
    let program = Program::from_text(LOOP, &LoadOptions::default()).expect("loads");
    // 64 threads x ~4000 instructions x 16 channels.
    c.bench_function("alu_loop_64_threads", |b| {
        b.iter(|| {
            Launch::new(&program)
                .simd(16)
                .groups(64)
                .capture("ACC")
                .run()
                .expect("runs")
        })
    });
}

fn gather_add_scatter(c: &mut Criterion) {
    let src = include_str!("../../examples/gather_add_scatter.visaasm");
    let program = Program::from_text(src, &LoadOptions::default()).expect("loads");
    let n = 16 * 1024;
    let mut svm = Svm::new();
    let a = svm.alloc_from(&vec![3i32; n]);
    let b_ptr = svm.alloc_from(&vec![4i32; n]);
    let out = svm.alloc(4 * n);
    c.bench_function("gather_add_scatter_16k", |b| {
        b.iter(|| {
            Launch::new(&program)
                .simd(16)
                .groups((n / 16) as u32)
                .svm(&svm)
                .bind_svm_lanes("A_PTR", a, 4)
                .bind_svm_lanes("B_PTR", b_ptr, 4)
                .bind_svm_lanes("OUT_PTR", out, 4)
                .bind_scalar("SCALE", 2i32)
                .bind_scalar("LO", 0i32)
                .bind_scalar("HI", 100i32)
                .run()
                .expect("runs")
        })
    });
}

criterion_group!(benches, alu_loop, gather_add_scatter);
criterion_main!(benches);
