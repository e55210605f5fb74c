//! The kernels the runtime benchmarks share (`kernels.rs`, `table.rs`): their vISA text, sizes,
//! data set-up and the plain Rust loops they are checked and timed against.
#![allow(dead_code)]

use rayon::ThreadPool;
use rayon::prelude::*;
use visa_runtime::{Buffer, Launch, Program, Svm};

/// Dwords of the SVM kernel. The brief asks for 16 M; the interpreter needs seconds for that on
/// this machine, so the benchmark uses 4 M to keep `cargo bench` under ten minutes.
pub const SVM_DWORDS: usize = 4 << 20;
pub const PERMUTE_DWORDS: usize = 1 << 20;
/// Work-items and loop trips of the ALU kernel.
pub const ALU_ITEMS: usize = 1 << 14;
pub const ALU_TRIPS: i32 = 64;
/// Work-items of the divergent kernel (trip counts 1..=DIVERGENT_MAX_TRIPS).
pub const DIVERGENT_ITEMS: usize = 1 << 14;
pub const DIVERGENT_MAX_TRIPS: u32 = 61;

pub const SIMD: usize = 16;

pub const SVM_ADD: &str = "
.decl A_PTR v_type=G type=uq num_elts=16 align=GRF
.decl B_PTR v_type=G type=uq num_elts=16 align=GRF
.decl OUT_PTR v_type=G type=uq num_elts=16 align=GRF
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
svm_gather.4.1 (M1, 16) A_PTR.0 A.0
svm_gather.4.1 (M1, 16) B_PTR.0 B.0
add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
svm_scatter.4.1 (M1, 16) OUT_PTR.0 A.0
";

/// Computes each work-item's byte offset `OFF` (global index * 4) from the group id and `LANE`
/// (bound to 0, 4, ..., 60).
pub const OFFSETS: &str = "
.decl LANE v_type=G type=ud num_elts=16 align=GRF
.decl BASE v_type=G type=ud num_elts=1
.decl OFF v_type=G type=ud num_elts=16 align=GRF
mul (M1_NM, 1) BASE(0,0)<1> %group_id_x(0,0)<0;1,0> 0x40:ud
add (M1, 16) OFF(0,0)<1> LANE(0,0)<1;1,0> BASE(0,0)<0;1,0>
";

/// `T7[i] = T6[T8[i]]` (T8 holds a permutation of the indices).
pub const PERMUTE: &str = "
.decl IDX v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
gather_scaled.4 (M1, 16) T8 0x0:ud OFF.0 IDX.0
shl (M1, 16) IDX(0,0)<1> IDX(0,0)<1;1,0> 0x2:ud
gather_scaled.4 (M1, 16) T6 0x0:ud IDX.0 D.0
scatter_scaled.4 (M1, 16) T7 0x0:ud OFF.0 D.0
";

/// The two predicates of the ALU and divergent kernels.
pub const PREDICATES: &str = "
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
";

/// Per work-item `x` (its global index): `ALU_TRIPS` times `y = y*3 + x; t = x*x; if t > y
/// { y = t }; x += 1`, then `T6[i] = y`. `TRIPS` is bound to [`ALU_TRIPS`].
pub const ALU: &str = "
.decl TRIPS v_type=G type=d num_elts=1
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=d num_elts=16 align=GRF
.decl T v_type=G type=d num_elts=16 align=GRF
.decl I v_type=G type=d num_elts=16 align=GRF
shr (M1, 16) X(0,0)<1> OFF(0,0)<1;1,0> 0x2:d
mov (M1, 16) Y(0,0)<1> 0x0:d
mov (M1, 16) I(0,0)<1> 0x0:d
LOOP:
mad (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x3:d X(0,0)<1;1,0>
mul (M1, 16) T(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0>
cmp.gt (M1, 16) P2 T(0,0)<1;1,0> Y(0,0)<1;1,0>
(P2) sel (M1, 16) Y(0,0)<1> T(0,0)<1;1,0> Y(0,0)<1;1,0>
add (M1, 16) X(0,0)<1> X(0,0)<1;1,0> 0x1:d
add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 I(0,0)<1;1,0> TRIPS(0,0)<0;1,0>
(P1) goto (M1, 16) LOOP
scatter_scaled.4 (M1, 16) T6 0x0:ud OFF.0 Y.0
";

/// Per work-item `n = T8[i]` trips (at least one) of: `acc += k` for even `k`, `acc += 1000` for
/// odd `k`; then `T6[i] = acc`.
pub const DIVERGENT: &str = "
.decl N v_type=G type=d num_elts=16 align=GRF
.decl K v_type=G type=d num_elts=16 align=GRF
.decl PAR v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
gather_scaled.4 (M1, 16) T8 0x0:ud OFF.0 N.0
mov (M1, 16) K(0,0)<1> 0x0:d
mov (M1, 16) ACC(0,0)<1> 0x0:d
LOOP:
and (M1, 16) PAR(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.eq (M1, 16) P2 PAR(0,0)<1;1,0> 0x0:d
(!P2) goto (M1, 16) ODD
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> K(0,0)<1;1,0>
goto (M1, 16) NEXT
ODD:
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3e8:d
NEXT:
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> N(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
scatter_scaled.4 (M1, 16) T6 0x0:ud OFF.0 ACC.0
";

/// 0, 4, ..., 60: the byte offset of each lane's dword.
pub fn lane_offsets() -> [u32; SIMD] {
    std::array::from_fn(|lane| lane as u32 * 4)
}

pub fn groups(items: usize) -> u32 {
    u32::try_from(items / SIMD).unwrap_or(u32::MAX)
}

/// A SIMD16 launch of `program` over `items` work-items, each lane given its byte offset in
/// `LANE` (the [`OFFSETS`] prologue) and the surfaces bound.
pub fn surface_launch<'a>(
    program: &'a Program,
    items: usize,
    surfaces: &[(&str, &'a Buffer)],
) -> Launch<'a> {
    let lanes = lane_offsets();
    let launch = Launch::new(program)
        .simd(SIMD as u32)
        .groups(groups(items))
        .bind_elements("LANE", &lanes);
    surfaces.iter().fold(launch, |launch, (name, buffer)| {
        launch.bind_surface(name, buffer)
    })
}

/// Deterministic pseudo-random numbers (xorshift64*).
pub fn random(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The SVM kernels' arrays: inputs `a` and `b` and an output of as many dwords.
pub struct SvmArrays {
    pub svm: Svm,
    pub a_ptr: u64,
    pub b_ptr: u64,
    pub out_ptr: u64,
}

impl SvmArrays {
    pub fn new(a: &[i32], b: &[i32]) -> SvmArrays {
        let mut svm = Svm::new();
        let a_ptr = svm.alloc_from(a);
        let b_ptr = svm.alloc_from(b);
        let out_ptr = svm.alloc(4 * a.len());
        SvmArrays {
            svm,
            a_ptr,
            b_ptr,
            out_ptr,
        }
    }

    /// A SIMD16 launch of `program` over [`SVM_DWORDS`] work-items, each lane's `A_PTR`,
    /// `B_PTR` and `OUT_PTR` pointing at its dword of the arrays.
    pub fn launch<'a>(&'a self, program: &'a Program) -> Launch<'a> {
        Launch::new(program)
            .simd(SIMD as u32)
            .groups(groups(SVM_DWORDS))
            .svm(&self.svm)
            .bind_svm_lanes("A_PTR", self.a_ptr, 4)
            .bind_svm_lanes("B_PTR", self.b_ptr, 4)
            .bind_svm_lanes("OUT_PTR", self.out_ptr, 4)
    }

    pub fn output(&self) -> Option<Vec<i32>> {
        self.svm.read_vec(self.out_ptr, SVM_DWORDS).ok()
    }
}

/// The README main job's arithmetic for one work-item (`SCALE` 5, `LO` -50, `HI` 250).
/// `permute`'s inputs: [`PERMUTE_DWORDS`] random source dwords and a random permutation of
/// their indices (a Fisher-Yates shuffle), the same in every bench.
pub fn permute_inputs() -> (Vec<u32>, Vec<u32>) {
    let mut next = random(2);
    let src: Vec<u32> = (0..PERMUTE_DWORDS).map(|_| next() as u32).collect();
    let mut perm: Vec<u32> = (0..PERMUTE_DWORDS as u32).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    (src, perm)
}

pub fn gather_add_scatter_native(a: i32, b: i32) -> i32 {
    a.wrapping_mul(5).wrapping_add(b).clamp(-50, 250)
}

/// The ALU kernel's result for work-item `x`.
pub fn alu_native(mut x: i32) -> i32 {
    let mut y = 0i32;
    for _ in 0..ALU_TRIPS {
        y = y.wrapping_mul(3).wrapping_add(x);
        let t = x.wrapping_mul(x);
        if t > y {
            y = t;
        }
        x = x.wrapping_add(1);
    }
    y
}

/// The divergent kernel's result for `n` trips.
pub fn divergent_native(n: i32) -> i32 {
    let mut acc = 0i32;
    let mut k = 0i32;
    loop {
        acc = acc.wrapping_add(if k % 2 == 0 { k } else { 1000 });
        k += 1;
        if k >= n {
            return acc;
        }
    }
}

/// The ALU control: the ALU kernel's native loop over 16x its work-items, split across the
/// pool it is run on. How much faster 2 threads run it than 1, in the same run as a launch,
/// bounds the speed-up any compute-bound launch can show on a machine shared with other work.
pub fn alu_control() -> impl FnMut(&ThreadPool) {
    let mut out = vec![0i32; ALU_ITEMS * 16];
    move |pool| {
        pool.install(|| {
            out.par_chunks_mut(1024)
                .enumerate()
                .for_each(|(chunk, values)| {
                    for (i, o) in values.iter_mut().enumerate() {
                        *o = alu_native(std::hint::black_box((chunk * 1024 + i) as i32));
                    }
                });
        })
    }
}

/// The memory control: `svm_add`'s native loop over its 48 MB, split across the pool it is run
/// on (a memory-bound launch cannot scale from 1 to 2 threads further than the machine's memory
/// lets this loop).
pub fn memory_control() -> impl FnMut(&ThreadPool) {
    let a: Vec<i32> = (0..SVM_DWORDS as i32).collect();
    let b: Vec<i32> = (0..SVM_DWORDS as i32).rev().collect();
    let mut sums = vec![0i32; SVM_DWORDS];
    move |pool| {
        pool.install(|| {
            sums.par_chunks_mut(1 << 16)
                .zip(a.par_chunks(1 << 16).zip(b.par_chunks(1 << 16)))
                .for_each(|(out, (x, y))| {
                    for ((o, x), y) in out.iter_mut().zip(x).zip(y) {
                        *o = x.wrapping_add(*y);
                    }
                });
        })
    }
}
