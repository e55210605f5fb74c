//! The example kernel of `examples/` through the re-exported API of the root crate, checked
//! against a plain Rust loop.

use visa::runtime::{Launch, LoadOptions, Program, Svm};

#[test]
fn gather_add_scatter_matches_a_rust_loop() {
    let src = include_str!("../examples/gather_add_scatter.visaasm");
    let module = visa::isa::text::parse(src).expect("the example parses");
    let program = Program::load(&module, &LoadOptions::default()).expect("the example loads");
    let n = 256usize;
    let a: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 101 - 50).collect();
    let b: Vec<i32> = (0..n as i32).map(|i| 1000 - 3 * i).collect();
    let mut svm = Svm::new();
    let a_ptr = svm.alloc_from(&a);
    let b_ptr = svm.alloc_from(&b);
    let out_ptr = svm.alloc(4 * n);
    let result = Launch::new(&program)
        .simd(16)
        .groups(8)
        .threads_per_group(2)
        .svm(&svm)
        .bind_svm_lanes("A_PTR", a_ptr, 4)
        .bind_svm_lanes("B_PTR", b_ptr, 4)
        .bind_svm_lanes("OUT_PTR", out_ptr, 4)
        .bind_scalar("SCALE", 7i32)
        .bind_scalar("LO", 0i32)
        .bind_scalar("HI", 900i32)
        .run()
        .expect("runs");
    let expected: Vec<i32> = (0..n).map(|i| (a[i] * 7 + b[i]).clamp(0, 900)).collect();
    assert_eq!(svm.read_vec::<i32>(out_ptr, n).unwrap(), expected);
    assert_eq!(result.threads(), 16);
    // Six instructions per thread.
    assert_eq!(result.steps(), 16 * 6);
}
