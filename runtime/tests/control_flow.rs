//! Divergent control flow: if/else, loops with per-lane trip counts, nested gotos, uniform
//! jumps, SIMD32 partial gotos and kernel-level ret, with the execution masks they produce.

mod common;

use common::{program, whole};
use visa_runtime::Launch;

const IF_ELSE: &str = "
.decl X v_type=G type=d num_elts=16 align=GRF
.decl Y v_type=G type=d num_elts=16 align=GRF
.decl MASKS v_type=G type=ud num_elts=4 align=GRF
.decl P1 v_type=P num_elts=16
cmp.lt (M1, 16) P1 X(0,0)<1;1,0> 0x8:d
(!P1) goto (M1, 16) ELSE
mov (M1_NM, 1) MASKS(0,0)<1> %ce0(0,0)<0;1,0>
add (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x64:d
goto (M1, 1) ENDIF
ELSE:
mov (M1_NM, 1) MASKS(0,1)<1> %ce0(0,0)<0;1,0>
mul (M1, 16) Y(0,0)<1> X(0,0)<1;1,0> 0x2:d
ENDIF:
mov (M1_NM, 1) MASKS(0,2)<1> %ce0(0,0)<0;1,0>
add (M1, 16) Y(0,0)<1> Y(0,0)<1;1,0> 0x1:d
";

fn if_else_reference(x: &[i32]) -> Vec<i32> {
    x.iter()
        .map(|v| if *v < 8 { v + 100 } else { v * 2 } + 1)
        .collect()
}

fn lane_mask(x: &[i32], f: impl Fn(i32) -> bool) -> u32 {
    x.iter()
        .enumerate()
        .filter(|(_, v)| f(**v))
        .fold(0, |m, (i, _)| m | 1 << i)
}

#[test]
fn if_else_runs_each_side_with_its_channels_then_reconverges() {
    let p = program(IF_ELSE);
    let x: Vec<i32> = (0..16).map(|i| (i * 5) % 16).collect();
    let r = Launch::new(&p)
        .simd(16)
        .bind_vector("X", &x)
        .bind_vector("Y", &[0i32; 16])
        .bind_elements("MASKS", &[0u32; 4])
        .capture("MASKS")
        .run()
        .unwrap();
    assert_eq!(r.vector::<i32>("Y").unwrap(), if_else_reference(&x));
    let masks = whole::<u32>(&r, "MASKS", 0);
    assert_eq!(masks[0], lane_mask(&x, |v| v < 8));
    assert_eq!(masks[1], lane_mask(&x, |v| v >= 8));
    assert_eq!(masks[2], 0xffff);
}

#[test]
fn if_else_with_every_channel_on_one_side() {
    let p = program(IF_ELSE);
    for x in [vec![3i32; 16], vec![9i32; 16]] {
        let r = Launch::new(&p)
            .simd(16)
            .bind_vector("X", &x)
            .bind_vector("Y", &[0i32; 16])
            .bind_elements("MASKS", &[0u32; 4])
            .capture("MASKS")
            .run()
            .unwrap();
        assert_eq!(r.vector::<i32>("Y").unwrap(), if_else_reference(&x));
        let masks = whole::<u32>(&r, "MASKS", 0);
        // The side no channel takes is skipped entirely (its mask is never recorded).
        let expected_then = if x[0] < 8 { 0xffff } else { 0 };
        assert_eq!(
            [masks[0], masks[1], masks[2]],
            [expected_then, 0xffff ^ expected_then, 0xffff]
        );
    }
}

const LOOP: &str = "
.decl N v_type=G type=d num_elts=16 align=GRF
.decl I v_type=G type=d num_elts=16 align=GRF
.decl T v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
.decl ITER v_type=G type=ud num_elts=1
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
mov (M1, 16) I(0,0)<1> 0x0:d
mov (M1, 16) ACC(0,0)<1> 0x0:d
mov (M1_NM, 1) ITER(0,0)<1> 0x0:ud
LOOP:
add (M1_NM, 1) ITER(0,0)<1> ITER(0,0)<0;1,0> 0x1:ud
and (M1, 16) T(0,0)<1> I(0,0)<1;1,0> 0x1:d
cmp.eq (M1, 16) P2 T(0,0)<1;1,0> 0x0:d
(!P2) goto (M1, 16) ODD
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> I(0,0)<1;1,0>
goto (M1, 16) NEXT
ODD:
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x3e8:d
NEXT:
add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 I(0,0)<1;1,0> N(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> 0x100000:d
";

#[test]
fn loops_with_per_lane_trip_counts_and_a_nested_branch() {
    let p = program(LOOP);
    let n: Vec<i32> = (0..32).map(|i| (i * 7) % 11).collect();
    let r = Launch::new(&p)
        .simd(16)
        .groups(2)
        .bind_vector("N", &n)
        .capture("ACC")
        .capture("ITER")
        .run()
        .unwrap();
    // Reference: a do-while loop per lane; even i adds i, odd i adds 1000; then all add 2^20.
    let expected: Vec<i32> = n
        .iter()
        .map(|&trips| {
            (0..trips.max(1))
                .map(|k| if k % 2 == 0 { k } else { 1000 })
                .sum::<i32>()
                + (1 << 20)
        })
        .collect();
    assert_eq!(r.vector::<i32>("ACC").unwrap(), expected);
    // The loop body runs as often as the longest lane of each thread needs.
    for thread in 0..2 {
        let longest = n[thread * 16..][..16]
            .iter()
            .map(|t| (*t).max(1))
            .max()
            .unwrap();
        assert_eq!(whole::<u32>(&r, "ITER", thread), [longest as u32]);
    }
}

#[test]
fn uniform_jmp_follows_the_first_predicate_channel() {
    let p = program(
        "
.decl S v_type=G type=d num_elts=1
.decl OUT v_type=G type=d num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
cmp.gt (M1_NM, 8) P1 S(0,0)<0;1,0> 0x0:d
(P1) jmp (M1, 1) POSITIVE
mov (M1, 8) OUT(0,0)<1> 0xFFFFFFFF:d
jmp (M1, 1) DONE
POSITIVE:
mov (M1, 8) OUT(0,0)<1> 0x1:d
DONE:
",
    );
    for (s, expected) in [(5i32, 1i32), (-5, -1)] {
        let r = Launch::new(&p)
            .simd(8)
            .bind_scalar("S", s)
            .capture("OUT")
            .run()
            .unwrap();
        assert_eq!(r.vector::<i32>("OUT").unwrap(), vec![expected; 8]);
    }
}

#[test]
fn simd16_goto_in_a_simd32_thread_keeps_the_upper_channels_running() {
    let p = program(
        "
.decl Y v_type=G type=d num_elts=32 align=GRF
.decl Z v_type=G type=d num_elts=32 align=GRF
.decl P1 v_type=P num_elts=32
setp (M1_NM, 32) P1 0x0000FFFF:ud
(P1) goto (M1, 16) L
mov (M1, 32) Y(0,0)<1> 0x1:d
L:
mov (M1, 32) Z(0,0)<1> 0x2:d
",
    );
    let r = Launch::new(&p)
        .simd(32)
        .bind_vector("Y", &[0i32; 32])
        .capture("Z")
        .run()
        .unwrap();
    let y: Vec<i32> = (0..32).map(|i| if i < 16 { 0 } else { 1 }).collect();
    assert_eq!(r.vector::<i32>("Y").unwrap(), y);
    assert_eq!(r.vector::<i32>("Z").unwrap(), vec![2; 32]);
}

#[test]
fn kernel_level_ret_retires_predicated_channels() {
    let p = program(
        "
.decl X v_type=G type=d num_elts=8 align=GRF
.decl Y v_type=G type=d num_elts=8 align=GRF
.decl P1 v_type=P num_elts=8
cmp.ge (M1, 8) P1 X(0,0)<1;1,0> 0x4:d
(P1) ret (M1, 8)
mov (M1, 8) Y(0,0)<1> X(0,0)<1;1,0>
",
    );
    let x: Vec<i32> = vec![1, 6, 2, 7, 3, 8, 0, 4];
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector("X", &x)
        .bind_vector("Y", &[-1i32; 8])
        .run()
        .unwrap();
    let y: Vec<i32> = x.iter().map(|v| if *v >= 4 { -1 } else { *v }).collect();
    assert_eq!(r.vector::<i32>("Y").unwrap(), y);
}
