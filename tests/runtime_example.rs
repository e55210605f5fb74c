//! The example kernels of `examples/` through the re-exported API of the root crate, checked
//! against plain Rust loops.

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

/// `examples/gemm_tile.visaasm` (block loads, `dpas`, block store; one 8 x 16 tile of C per
/// group) against a plain Rust matrix product, for sizes that are and are not multiples of the
/// tile and of the 32 values of K one `dpas` takes. C has a sentinel tail the kernel must not
/// touch: the tiles over C's edges store only inside it.
#[test]
fn gemm_tile_matches_a_rust_matrix_product() {
    let src = include_str!("../examples/gemm_tile.visaasm");
    let module = visa::isa::text::parse(src).expect("the example parses");
    let options = LoadOptions::default().grf_bytes(64);
    let program = Program::load(&module, &options).expect("the example loads");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as i8
    };
    for (m, n, k) in [(8, 16, 32), (32, 32, 64), (20, 24, 40), (13, 40, 70)] {
        let a: Vec<i8> = (0..m * k).map(|_| next()).collect();
        let b: Vec<i8> = (0..k * n).map(|_| next()).collect();
        let sentinel = 0x5eed_5eedi32;
        let mut svm = Svm::new();
        let a_ptr = svm.alloc_from(&a);
        let b_ptr = svm.alloc_from(&b);
        let c_ptr = svm.alloc_from(&vec![sentinel; m * n + 64]);
        let groups = m.div_ceil(8) * n.div_ceil(16);
        Launch::new(&program)
            .simd(16)
            .groups(groups as u32)
            .svm(&svm)
            .bind_svm_lanes("A_PTR", a_ptr, 1)
            .bind_svm_lanes("B_PTR", b_ptr, 1)
            .bind_svm_lanes("C_PTR", c_ptr, 4)
            .bind_scalar("M", m as u32)
            .bind_scalar("N", n as u32)
            .bind_scalar("K", k as u32)
            .run()
            .unwrap_or_else(|e| panic!("{m}x{n}x{k}: {e}"));
        let mut expected = vec![sentinel; m * n + 64];
        for i in 0..m {
            for j in 0..n {
                expected[i * n + j] = (0..k)
                    .map(|l| i32::from(a[i * k + l]) * i32::from(b[l * n + j]))
                    .sum();
            }
        }
        let got = svm.read_vec::<i32>(c_ptr, m * n + 64).unwrap();
        assert_eq!(got, expected, "{m}x{n}x{k}");
    }
}
