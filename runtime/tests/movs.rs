//! `movs` (MOVS.md): surface and sampler variables hold binding-table numbers. `Tn` starts as
//! entry n, the d-th declared surface as entry 6 + d, the d-th declared sampler as d, `%bss` as
//! unset; entry 0 is the group's SLM and entry 5 the stateless space. Expected values follow
//! from those rules and from the buffers each test binds.

mod common;

use common::{program, trap_kind, whole};
use visa_runtime::{Buffer, Launch, LaunchError, LaunchResult, LoadOptions, Program, TrapKind};

const DECLS: &str = "
.decl S v_type=T num_elts=1
.decl Q v_type=T num_elts=1
.decl M v_type=T num_elts=4
.decl SMP v_type=S num_elts=2
.decl R v_type=G type=ud num_elts=8 align=GRF
.decl X v_type=G type=ud num_elts=4 align=GRF
.decl Y v_type=G type=ud num_elts=4 align=GRF
.decl Z v_type=G type=ud num_elts=4 align=GRF
.decl OFF v_type=G type=ud num_elts=1 align=GRF
";

fn launch<'a>(p: &'a Program, buffers: &[(&str, &'a Buffer)]) -> Result<LaunchResult, LaunchError> {
    let mut launch = Launch::new(p)
        .simd(8)
        .slm_size(64)
        .capture("R")
        .capture("X")
        .capture("Y")
        .capture("Z");
    for (name, buffer) in buffers {
        launch = launch.bind_surface(name, buffer);
    }
    launch.run()
}

fn run(body: &str, buffers: &[(&str, &Buffer)]) -> LaunchResult {
    let p = program(&format!("{DECLS}{body}"));
    launch(&p, buffers).unwrap_or_else(|e| panic!("{e}"))
}

/// A buffer of four dwords `base`, `base + 1`, ...
fn buffer(base: u32) -> Buffer {
    Buffer::from_slice(&[base, base + 1, base + 2, base + 3])
}

#[test]
fn reading_a_state_gives_its_binding_table_number() {
    let r = run(
        "movs (M1_NM, 1) R(0,0)<1> S(0)
movs (M1_NM, 1) R(0,1)<1> Q(0)
movs (M1_NM, 1) R(0,2)<1> T9(0)
movs (M1_NM, 1) R(0,3)<1> %slm(0)
movs (M1_NM, 1) R(0,4)<1> %scratch(0)
movs (M1_NM, 1) R(0,5)<1> SMP(0)
movs (M1_NM, 1) R(0,6)<1> M(0)
mov (M1_NM, 1) R(0,7)<1> 0x0:ud
",
        &[],
    );
    // S, Q, M are the first three declared surfaces (6, 7, 8).
    assert_eq!(whole::<u32>(&r, "R", 0), [6, 7, 9, 0, 5, 0, 8, 0]);
}

#[test]
fn a_surface_set_from_a_value_redirects_later_accesses() {
    let (a, b) = (buffer(100), buffer(200));
    let r = run(
        "oword_ld (1) S 0x0:ud X.0
movs (M1_NM, 1) S(0) 0x7:ud
oword_ld (1) S 0x0:ud Y.0
mov (M1_NM, 1) OFF(0,0)<1> 0x6:ud
movs (M1_NM, 1) S(0) OFF(0,0)<0;1,0>
oword_ld (1) S 0x0:ud Z.0
",
        &[("S", &a), ("Q", &b)],
    );
    assert_eq!(whole::<u32>(&r, "X", 0), [100, 101, 102, 103]);
    assert_eq!(
        whole::<u32>(&r, "Y", 0),
        [200, 201, 202, 203],
        "entry 7 is Q's buffer"
    );
    assert_eq!(
        whole::<u32>(&r, "Z", 0),
        [100, 101, 102, 103],
        "back to entry 6"
    );
}

#[test]
fn writes_through_a_repointed_surface_reach_the_new_buffer() {
    let (a, b) = (buffer(0), buffer(0));
    let r = run(
        "mov (M1, 4) X(0,0)<1> 0x2a:ud
movs (M1_NM, 1) S(0) Q(0)
oword_st (1) S 0x0:ud X.0
movs (M1_NM, 1) S(0) %slm(0)
oword_st (1) S 0x0:ud X.0
oword_ld (1) %slm 0x0:ud Y.0
",
        &[("S", &a), ("Q", &b)],
    );
    assert_eq!(
        a.to_vec::<u32>(),
        [0, 1, 2, 3],
        "S's own buffer is untouched"
    );
    assert_eq!(b.to_vec::<u32>(), [42; 4]);
    assert_eq!(
        whole::<u32>(&r, "Y", 0),
        [42; 4],
        "entry 0 is the group's SLM"
    );
}

#[test]
fn entries_the_kernel_never_names_can_be_bound_when_it_repoints_surfaces() {
    let c = buffer(300);
    let r = run(
        "mov (M1_NM, 1) OFF(0,0)<1> 0xb:ud
movs (M1_NM, 1) Q(0) OFF(0,0)<0;1,0>
oword_ld (1) Q 0x0:ud X.0
",
        &[("T11", &c)],
    );
    assert_eq!(whole::<u32>(&r, "X", 0), [300, 301, 302, 303]);
}

#[test]
fn bindless_bss_selects_the_entry_its_value_names() {
    // The corpus form: the bindless offset is taken as a binding-table number.
    let c = buffer(500);
    let src = "
.decl bindlessOffset v_type=G type=ud num_elts=1 align=GRF
.decl X v_type=G type=ud num_elts=4 align=GRF
movs (M1_NM, 1) %bss(0) bindlessOffset(0,0)<0;1,0>
oword_ld (1) %bss 0x0:ud X.0
";
    let p = program(src);
    let r = Launch::new(&p)
        .simd(8)
        .bind_scalar("bindlessOffset", 8u32)
        .bind_surface("T8", &c)
        .capture("X")
        .run()
        .unwrap();
    assert_eq!(whole::<u32>(&r, "X", 0), [500, 501, 502, 503]);
    // %bss itself is not bound by name: the error says which entry to bind instead.
    let err = Launch::new(&p)
        .simd(8)
        .bind_scalar("bindlessOffset", 8u32)
        .bind_surface("%bss", &c)
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("sets this surface's binding-table number with movs") && err.contains("Tn"),
        "{err}"
    );
    // Without the movs, %bss holds no number.
    let p =
        program(".decl X v_type=G type=ud num_elts=4 align=GRF\noword_ld (1) %bss 0x0:ud X.0\n");
    assert_eq!(
        trap_kind(Launch::new(&p).simd(8).run()),
        TrapKind::Uninitialized { var: "%bss".into() }
    );
}

#[test]
fn state_to_state_copies_several_elements_under_the_execution_mask() {
    // SIMD4: an (M1, 4) movs copies four elements; (M1, 8) from a general source would need
    // eight. Elements of M start unset except element 0.
    let src = format!(
        "{DECLS}mov (M1_NM, 8) R(0,0)<1> 0x76543210:v
movs (M1_NM, 4) M(0) R(0,4)<1;1,0>
movs (M1_NM, 2) SMP(0) 0x3:ud
movs (M1_NM, 1) SMP(1) SMP(0)
movs (M1_NM, 1) R(0,6)<1> SMP(1)
movs (M1, 4) R(0,0)<1> M(0)
"
    );
    let p = program(&src);
    let r = Launch::new(&p).simd(2).capture("R").run().unwrap();
    // Lanes 0-1 are enabled (SIMD2 dispatch); R(0,2..4) keep the packed values 2, 3.
    assert_eq!(whole::<u32>(&r, "R", 0), [4, 5, 2, 3, 4, 5, 3, 7]);
}

#[test]
fn reading_an_unset_state_element_traps() {
    let p = program(&format!("{DECLS}movs (M1_NM, 2) R(0,0)<1> M(0)\n"));
    match launch(&p, &[]) {
        Err(LaunchError::Trap(t)) => {
            assert_eq!(t.kind, TrapKind::Uninitialized { var: "M".into() });
            assert_eq!(t.lane, Some(1));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn accesses_through_entries_without_a_buffer_trap_with_the_entry() {
    let p = program(&format!(
        "{DECLS}movs (M1_NM, 1) S(0) 0xc:ud\noword_ld (1) S 0x0:ud X.0\n"
    ));
    assert_eq!(
        trap_kind(launch(&p, &[])),
        TrapKind::SurfaceEntry {
            var: "S".into(),
            entry: 12,
            problem: "is not bound by the launch",
        }
    );
    let p = program(&format!(
        "{DECLS}movs (M1_NM, 1) S(0) 0x2:ud\noword_ld (1) S 0x0:ud X.0\n"
    ));
    let kind = trap_kind(launch(&p, &[]));
    assert!(
        kind.to_string()
            .contains("entry 2, which is a stack, scratch or bindless surface"),
        "{kind}"
    );
    // An untouched surface that is not bound keeps the old message.
    let p = program(&format!("{DECLS}oword_ld (1) Q 0x0:ud X.0\n"));
    assert_eq!(
        trap_kind(launch(&p, &[])),
        TrapKind::UnboundSurface("Q".into())
    );
}

fn load_error(body: &str) -> String {
    Program::from_text(&format!("{DECLS}{body}"), &LoadOptions::default())
        .err()
        .unwrap_or_else(|| panic!("{body} loaded"))
        .to_string()
}

#[test]
fn forms_the_model_cannot_give_a_meaning_are_load_errors() {
    let at = "at 11:1";
    let cases = [
        (
            "movs (M1_NM, 1) R(0,0)<1> OFF(0,0)<0;1,0>\n",
            "movs: one operand must be a surface or sampler (general to general is mov)",
        ),
        (
            "movs (M1_NM, 1) S(0) SMP(0)\n",
            "movs: 'S' is a surface but 'SMP' is a sampler; state operands must be of one class",
        ),
        (
            "movs (M1_NM, 1) %slm(0) 0x6:ud\n",
            "movs: '%slm' is a fixed predefined surface and cannot be re-pointed",
        ),
        (
            "movs (M1_NM, 1) R(0,0)<1> T1(0)\n",
            "movs: surface 'T1' (stack or scratch-space state) is not modelled",
        ),
        (
            "movs (M1_NM, 2) S(0) 0x6:ud\n",
            "movs: 2 element(s) from element 0 reach outside 'S' (1 element(s))",
        ),
        (
            "movs (M1_NM, 1) S(0) 0x6:uw\n",
            "movs: <src0> has type uw; surface and sampler indices are moved as UD",
        ),
        (
            "movs (M1_NM, 1) X(0,0)<1>:d S(0)\n",
            "movs: <dst> has type d; surface and sampler indices are moved as UD",
        ),
    ];
    for (body, message) in cases {
        assert_eq!(
            load_error(body),
            format!("not executed by this runtime: {message} {at}"),
            "{body}"
        );
    }
}

#[test]
fn launch_bindings_are_checked_against_the_numbering() {
    let a = buffer(0);
    // Without movs into a surface, an entry the kernel never names cannot be reached.
    let p = program(&format!("{DECLS}movs (M1_NM, 1) SMP(0) 0x1:ud\n"));
    let err = launch(&p, &[("T11", &a)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 'T11': the kernel does not use this surface"
    );
    // S is entry 6, like T6.
    let p = program(&format!("{DECLS}movs (M1_NM, 1) S(0) 0x7:ud\n"));
    let err = launch(&p, &[("S", &a), ("T6", &a)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 'T6': binding-table entry 6 is bound twice"
    );
}

#[test]
fn only_canonical_binding_table_names_are_surfaces() {
    // `T6`..`T255` are binding-table entries; `T06` and `T256` are not surfaces, as in the
    // checker.
    for name in ["T06", "T256"] {
        let src = format!(
            ".decl X v_type=G type=ud num_elts=4 align=GRF\noword_ld (1) {name} 0x0:ud X.0\n"
        );
        let err = match Program::from_text(&src, &LoadOptions::default()) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{name} loaded"),
        };
        assert!(
            err.contains(&format!("oword_ld: `{name}` in <surface> is not declared")),
            "{err}"
        );
    }
    program(".decl X v_type=G type=ud num_elts=4 align=GRF\noword_ld (1) T255 0x0:ud X.0\n");
}
