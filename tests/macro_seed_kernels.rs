//! The seed instructions written with `isa!` and run through the runtime. Expected values are
//! worked out here from the documents' rules (plain Rust over the same input data).

use visa::runtime::{Buffer, Svm};

/// `n` little-endian dwords of a thread's variable, `None` for bytes never written.
fn dwords(bytes: &[u8], defined: &[bool], n: usize) -> Vec<Option<u32>> {
    (0..n)
        .map(|i| {
            let range = i * 4..i * 4 + 4;
            defined[range.clone()]
                .iter()
                .all(|d| *d)
                .then(|| u32::from_le_bytes(bytes[range].try_into().expect("4 bytes")))
        })
        .collect()
}

#[test]
fn gather_scaled_reads_dwords_and_zero_out_of_bounds() {
    let kernel = visa::isa! {
        kernel gather<8>(buf: surface, offs: vector<ud>, dst: vector<ud>) {
            gather_scaled.4 (M1, 8) buf 0x4:ud offs.0 dst.0
        }
    };
    let words: Vec<u32> = (0..16).map(|i| 0x1000 + i * 7).collect();
    let surface = Buffer::from_slice(&words);
    // Lane i reads at byte 4 + offs[i]; lane 7 is past the end of the 64-byte surface.
    let offs: Vec<u32> = vec![0, 8, 4, 28, 56, 12, 16, 64];
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .bind_surface("buf", &surface)
        .bind_vector("offs", &offs)
        .capture("dst")
        .run()
        .expect("runs");
    let expected: Vec<u32> = offs
        .iter()
        .map(|o| {
            let byte = 4 + *o as usize;
            words.get(byte / 4).copied().unwrap_or(0)
        })
        .collect();
    assert_eq!(result.vector::<u32>("dst").expect("defined"), expected);
    assert_eq!(expected[7], 0, "out-of-bounds reads return zero");
}

#[test]
fn gather_scaled_one_byte_leaves_upper_bytes_undefined() {
    let kernel = visa::isa! {
        kernel gather1<4>(buf: surface, offs: vector<ud>, dst: vector<ud>) {
            gather_scaled.1 (M1, 4) buf 0x0:ud offs.0 dst.0
        }
    };
    let bytes: Vec<u8> = (0..32).map(|i| 200 - i).collect();
    let surface = Buffer::from_bytes(&bytes);
    let offs: Vec<u32> = vec![3, 0, 31, 17];
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .bind_surface("buf", &surface)
        .bind_vector("offs", &offs)
        .capture("dst")
        .run()
        .expect("runs");
    let (data, defined) = result.thread_bytes("dst", 0).expect("captured");
    for (lane, off) in offs.iter().enumerate() {
        assert_eq!(data[lane * 4], bytes[*off as usize], "lane {lane}");
        assert!(defined[lane * 4]);
        // (Only the interpreter tracks undefined bytes.)
        if loaded.program().engine() == visa::runtime::Engine::Interpreter {
            assert!(!defined[lane * 4 + 1..lane * 4 + 4].iter().any(|d| *d));
        }
    }
}

#[test]
fn scatter_scaled_writes_and_drops_out_of_bounds() {
    let kernel = visa::isa! {
        kernel scatter<8>(buf: surface, offs: vector<ud>, src: vector<ud>) {
            scatter_scaled.4 (M1, 8) buf 0x0:ud offs.0 src.0
        }
    };
    let surface = Buffer::zeroed(32);
    let offs: Vec<u32> = vec![28, 24, 20, 16, 12, 8, 4, 100];
    let src: Vec<u32> = (0..8).map(|i| 0xabc0 + i).collect();
    let loaded = kernel.load().expect("loads");
    loaded
        .launch()
        .bind_surface("buf", &surface)
        .bind_vector("offs", &offs)
        .bind_vector("src", &src)
        .run()
        .expect("runs");
    let mut expected = vec![0u32; 8];
    for (o, v) in offs.iter().zip(&src) {
        if let Some(slot) = expected.get_mut(*o as usize / 4) {
            *slot = *v;
        }
    }
    assert_eq!(surface.to_vec::<u32>(), expected);
}

#[test]
fn oword_ld_unaligned_reads_from_a_dword_aligned_offset() {
    let kernel = visa::isa! {
        kernel owords<8>(buf: surface, dst: vector<ud>) {
            oword_ld_unaligned (2) buf 0x8:ud dst.0
        }
    };
    let words: Vec<u32> = (0..16).map(|i| i * 0x0101_0101).collect();
    let surface = Buffer::from_slice(&words);
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .bind_surface("buf", &surface)
        .capture("dst")
        .run()
        .expect("runs");
    let (data, defined) = result.thread_bytes("dst", 0).expect("captured");
    // Two owords = 32 bytes = 8 dwords starting at byte 8 (dword 2).
    let expected: Vec<Option<u32>> = words[2..10].iter().map(|w| Some(*w)).collect();
    assert_eq!(dwords(data, defined, 8), expected);
}

/// Runs an SVM gather kernel over one SIMD8 thread whose lane i points at `base + i * stride`,
/// returning the destination variable's dwords.
fn run_svm(
    kernel: &visa::Kernel,
    memory: &[u8],
    stride: u64,
    dst_dwords: usize,
) -> Vec<Option<u32>> {
    let mut svm = Svm::new();
    let base = svm.alloc_from(memory);
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .svm(&svm)
        .bind_svm_lanes("addr", base, stride)
        .capture("dst")
        .run()
        .expect("runs");
    let (data, defined) = result.thread_bytes("dst", 0).expect("captured");
    dwords(data, defined, dst_dwords)
}

fn memory() -> Vec<u8> {
    (0..256u32).map(|i| (i * 13 + 5) as u8).collect()
}

fn dword_at(mem: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(mem[at..at + 4].try_into().expect("4 bytes"))
}

#[test]
fn svm_gather_four_byte_blocks_are_block_major() {
    let kernel = visa::isa! {
        kernel g42<8>(addr: svm, dst: vector<ud>) {
            .decl D v_type=G type=ud num_elts=16 align=GRF
            svm_gather.4.2 (M1, 8) addr.0 D.0
            mov (M1, 8) dst(0,0)<1> D(1,0)<1;1,0>
        }
    };
    let mem = memory();
    // Block j of lane i comes from addr_i + 4j and lands at element j*8 + i; `dst` copies block 1.
    let got = run_svm(&kernel, &mem, 16, 8);
    let expected: Vec<Option<u32>> = (0..8).map(|i| Some(dword_at(&mem, i * 16 + 4))).collect();
    assert_eq!(got, expected);
}

#[test]
fn svm_gather_eight_byte_blocks() {
    let kernel = visa::isa! {
        kernel g81<8>(addr: svm, dst: vector<ud>) {
            .decl D v_type=G type=uq num_elts=8 align=GRF
            .decl DD v_type=G type=ud num_elts=16 alias=<D, 0>
            svm_gather.8.1 (M1, 8) addr.0 D.0
            mov (M1, 8) dst(0,0)<1> DD(0,0)<2;1,0>
        }
    };
    let mem = memory();
    // Lane i's qword lands at element i; `dst` takes each qword's low dword.
    let got = run_svm(&kernel, &mem, 24, 8);
    let expected: Vec<Option<u32>> = (0..8).map(|i| Some(dword_at(&mem, i * 24))).collect();
    assert_eq!(got, expected);
}

#[test]
fn svm_gather_one_byte_blocks_are_lane_major() {
    let kernel = visa::isa! {
        kernel g14<8>(addr: svm, dst: vector<ud>) {
            .decl D v_type=G type=ud num_elts=8 align=GRF
            svm_gather.1.4 (M1, 8) addr.0 D.0
            mov (M1, 8) dst(0,0)<1> D(0,0)<1;1,0>
        }
    };
    let mem = memory();
    // Four bytes per lane, packed in the lane's own dword (stride max(4, 4) = 4).
    let got = run_svm(&kernel, &mem, 9, 8);
    let expected: Vec<Option<u32>> = (0..8).map(|i| Some(dword_at(&mem, i * 9))).collect();
    assert_eq!(got, expected);
}

#[test]
fn shared_kernel_letter_example_adds_one_through_svm() {
    let kernel = visa::isa! {
        kernel letter_example<16>(a: svm) {
            {
            .decl V52 v_type=G type=d num_elts=16 align=GRF
            svm_gather.4.1 (M1, 16) %0.0 V52.0
            add(M1, 16) V52(0, 0)<1> V52(0, 0)<1; 1, 0> 0x1:w
            svm_scatter.4.1 (M1, 16) %0.0 V52.0
            }
        }
    };
    // The header of llvm_letter_example: a[i] = i, expected a[i] == i + 1.
    let mut svm = Svm::new();
    let values: Vec<i32> = (0..64).collect();
    let base = svm.alloc_from(&values);
    let loaded = kernel.load().expect("loads");
    loaded
        .launch()
        .groups(4)
        .svm(&svm)
        .bind_svm_lanes("a", base, 4)
        .run()
        .expect("runs");
    let out = svm.read_vec::<i32>(base, 64).expect("mapped");
    assert_eq!(out, (1..65).collect::<Vec<i32>>());
}

#[test]
fn shared_kernel_template_var_decl() {
    let kernel = visa::isa! {
        kernel test_template_var_decl<16>(dst: vector<d>, src2: vector<d>, src1: vector<d>) {
            .decl tmp1 v_type=G type=d num_elts=16 align=GRF
            mul (M1, 16) tmp1(0,0)<1> %1(0,0)<1;1,0> %2(0,0)<1;1,0>
            add (M1, 16) %0(0,0)<1> %0(0,0)<1;1,0> (-)tmp1(0,0)<1;1,0>
            .decl tmp2 v_type=G type=d num_elts=16 align=GRF alias=<tmp1, 0>
            add (M1, 16) tmp2(0,0)<1> %1(0,0)<1;1,0> (-)%2(0,0)<1;1,0>
            mul (M1, 16) %0(0,0)<1> %0(0,0)<1;1,0> tmp2(0,0)<1;1,0>
        }
    };
    let d0: Vec<i32> = (0..32).map(|i| 3 * i - 20).collect();
    let s2: Vec<i32> = (0..32).map(|i| i % 7 - 3).collect();
    let s1: Vec<i32> = (0..32).map(|i| 11 - i).collect();
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .groups(2)
        .bind_vector("dst", &d0)
        .bind_vector("src2", &s2)
        .bind_vector("src1", &s1)
        .capture("dst")
        .run()
        .expect("runs");
    // dst = (dst - src2*src1) * (src2 - src1), per work-item.
    let expected: Vec<i32> = (0..32)
        .map(|i| (d0[i] - s2[i] * s1[i]) * (s2[i] - s1[i]))
        .collect();
    assert_eq!(result.vector::<i32>("dst").expect("defined"), expected);
}

#[test]
fn rust_immediates_reach_the_runtime() {
    let scale: i32 = -3;
    let kernel = visa::isa! {
        kernel scaled<8>(x: vector<d>) {
            mul (M1, 8) x(0,0)<1> x(0,0)<1;1,0> {scale}:d
            add (M1, 8) x(0,0)<1> x(0,0)<1;1,0> {100}:d
        }
    };
    let x: Vec<i32> = (0..8).collect();
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .bind_vector("x", &x)
        .capture("x")
        .run()
        .expect("runs");
    let expected: Vec<i32> = x.iter().map(|v| v * scale + 100).collect();
    assert_eq!(result.vector::<i32>("x").expect("defined"), expected);
}

#[test]
fn shared_kernel_single_basic_block_copies_through_svm() {
    let kernel = visa::isa! {
        kernel test_single_basic_block<16>(p_src: svm, p_dst: svm) {
            {
            .decl tmp v_type=G type=d num_elts=16 align=hword
            svm_gather.4.1 (M1, 16) %0.0 tmp.0
            svm_scatter.4.1 (M1, 16) %1.0 tmp.0
            }
        }
    };
    let mut svm = Svm::new();
    let src: Vec<u32> = (0..48u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let src_base = svm.alloc_from(&src);
    let dst_base = svm.alloc_from(&[0u32; 48]);
    let loaded = kernel.load().expect("loads");
    loaded
        .launch()
        .groups(3)
        .svm(&svm)
        .bind_svm_lanes("p_src", src_base, 4)
        .bind_svm_lanes("p_dst", dst_base, 4)
        .run()
        .expect("runs");
    assert_eq!(svm.read_vec::<u32>(dst_base, 48).expect("mapped"), src);
}

#[test]
fn shared_kernel_decl_in_scope_multiplies() {
    let kernel = visa::isa! {
        kernel asm_decl_in_scope<16>(c: vector<d>, a: vector<d>, b: vector<d>) {
            {
            .decl temp v_type=G type=d num_elts=16 align=GRF
            mov (M1, 16) temp(0, 0)<1> %1(0, 0)<1;1,0>
            mov (M1, 16) %0(0, 0)<1>  temp(0, 0)<1;1,0>
            }
            .decl temp v_type=G type=d num_elts=16 align=GRF
            mul (M1, 16) temp(0, 0)<1> %2(0, 0)<1;1,0> %0(0, 0)<1;1,0>
            mov (M1, 16) %0(0, 0)<1>  temp(0, 0)<1;1,0>
        }
    };
    // The test's data: A[i] = i, B[i] = 2; expected C[i] == A[i] * B[i].
    let a: Vec<i32> = (0..16).collect();
    let b = vec![2i32; 16];
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .bind_vector("c", &[0i32; 16])
        .bind_vector("a", &a)
        .bind_vector("b", &b)
        .capture("c")
        .run()
        .expect("runs");
    let expected: Vec<i32> = a.iter().map(|v| v * 2).collect();
    assert_eq!(result.vector::<i32>("c").expect("defined"), expected);
}

#[test]
fn shared_kernel_inline_asm_with_dollar_operands() {
    let kernel = visa::isa! {
        kernel inline_asm<8>(out: vector<ud>, a: vector<ud>, b: vector<ud>, c: vector<ud>) {
            {
            .decl P1 v_type=P num_elts=8
            mov (M1, 8) $0 0x1:ud
            setp (M1_NM, 8) P1 $3
            (P1) add (M1_NM, 8) $0 $1 $2
            }
        }
    };
    let a: Vec<u32> = (0..8).map(|i| 10 * i).collect();
    let b: Vec<u32> = (0..8).map(|i| 1000 + i).collect();
    let c: Vec<u32> = vec![1, 0, 0, 1, 1, 0, 1, 0];
    let loaded = kernel.load().expect("loads");
    let result = loaded
        .launch()
        .bind_vector("a", &a)
        .bind_vector("b", &b)
        .bind_vector("c", &c)
        .capture("out")
        .run()
        .expect("runs");
    // The predicate takes lane i from c[i]: set lanes add, the others keep the 1 moved first.
    let expected: Vec<u32> = (0..8)
        .map(|i| if c[i] != 0 { a[i] + b[i] } else { 1 })
        .collect();
    assert_eq!(result.vector::<u32>("out").expect("defined"), expected);
}
