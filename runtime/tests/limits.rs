//! Resource limits as data: instruction and declaration counts and SLM size at load time
//! ([`LoadOptions`]), SVM allocation size ([`Svm`]) and fuel ([`Launch::fuel`]).

use visa_isa::ast::Span;
use visa_runtime::{
    DEFAULT_FUEL, DEFAULT_MAX_MEMORY, Launch, LaunchError, LoadOptions, Program, SIMD_WIDTHS, Svm,
    SvmAllocError, TrapKind,
};

fn movs(count: usize) -> String {
    let mut src = String::from(".decl X v_type=G type=d num_elts=8 align=GRF\n");
    for i in 0..count {
        src.push_str(&format!("mov (M1, 8) X(0,0)<1> {i:#x}:d\n"));
    }
    src
}

fn decls(count: usize) -> String {
    (0..count)
        .map(|i| format!(".decl V{i} v_type=G type=d num_elts=1\n"))
        .collect()
}

#[test]
fn the_defaults_are_documented_values() {
    let options = LoadOptions::default();
    assert_eq!(options.max_instructions, 1 << 20);
    assert_eq!(options.max_variables, 1 << 16);
    assert_eq!(options.max_slm_bytes, 1 << 20);
    assert_eq!(DEFAULT_FUEL, 1 << 32);
    assert_eq!(Svm::DEFAULT_MAX_ALLOCATION, 1 << 30);
}

#[test]
fn the_instruction_count_is_limited() {
    let options = LoadOptions {
        max_instructions: 3,
        ..LoadOptions::default()
    };
    let p = Program::from_text(&movs(3), &options).expect("3 instructions fit");
    assert_eq!(p.len(), 3);
    let err = Program::from_text(&movs(4), &options).unwrap_err();
    assert_eq!(err.span, Span::new(5, 1));
    assert_eq!(err.to_string(), "more than 3 instructions at 5:1");
}

#[test]
fn the_declaration_count_is_limited() {
    let options = LoadOptions {
        max_variables: 5,
        ..LoadOptions::default()
    };
    assert!(Program::from_text(&decls(5), &options).is_ok());
    let err = Program::from_text(&decls(6), &options).unwrap_err();
    assert_eq!(err.to_string(), "more than 5 variable declarations at 6:1");
    // Every kind of declaration counts, not only general variables.
    let mixed =
        ".decl P v_type=P num_elts=16\n.decl A v_type=A num_elts=1\n.decl S v_type=T num_elts=1\n";
    let err = Program::from_text(
        mixed,
        &LoadOptions {
            max_variables: 2,
            ..LoadOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "more than 2 variable declarations at 3:1");
}

#[test]
fn the_slm_size_attribute_is_limited() {
    let src = |bytes: u64| format!(".kernel_attr SLMSize={bytes}\n{}", movs(1));
    let options = LoadOptions {
        max_slm_bytes: 4096,
        ..LoadOptions::default()
    };
    assert!(Program::from_text(&src(4096), &options).is_ok());
    let err = Program::from_text(&src(4097), &options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "SLMSize 4097 exceeds the limit of 4096 bytes at 1:1"
    );
    // The default refuses a 4 GiB SLM that every group would allocate.
    let err = Program::from_text(&src(u64::from(u32::MAX)), &LoadOptions::default()).unwrap_err();
    assert_eq!(
        err.message,
        format!(
            "SLMSize {} exceeds the limit of {} bytes",
            u32::MAX,
            1 << 20
        )
    );
}

#[test]
fn svm_allocations_are_limited() {
    let mut svm = Svm::new().with_max_allocation(64);
    let a = svm.try_alloc(64).expect("at the limit");
    assert_eq!(
        svm.try_alloc(65),
        Err(SvmAllocError::TooLarge { len: 65, max: 64 })
    );
    // A refused allocation leaves the space as it was: the next one follows the first.
    let b = svm.try_alloc(1).expect("small");
    assert_eq!(
        b,
        a + 0x2000,
        "64 bytes, then the 4 KiB guard gap, rounded up"
    );
    assert_eq!(
        SvmAllocError::TooLarge { len: 65, max: 64 }.to_string(),
        "SVM allocation of 65 bytes exceeds the limit of 64 bytes"
    );
    // Without a limit, running out of address space is an error too, not an overflow.
    let mut unlimited = Svm::new().with_max_allocation(usize::MAX);
    assert_eq!(
        unlimited.try_alloc(usize::MAX),
        Err(SvmAllocError::AddressSpace { len: usize::MAX })
    );
}

#[test]
fn fuel_is_a_launch_option() {
    let p = Program::from_text(&movs(10), &LoadOptions::default()).expect("loads");
    assert_eq!(
        Launch::new(&p)
            .simd(8)
            .fuel(10)
            .run()
            .expect("fits")
            .steps(),
        10
    );
    let err = Launch::new(&p).simd(8).fuel(9).run().unwrap_err();
    match err {
        visa_runtime::LaunchError::Trap(t) => {
            assert_eq!((t.kind, t.pc), (TrapKind::OutOfFuel(9), 9));
        }
        other => panic!("{other}"),
    }
}

fn small_kernel() -> Program {
    Program::from_text(&movs(1), &LoadOptions::default()).expect("loads")
}

/// The parameter a launch error names, for a grid error.
fn grid_parameter(err: &LaunchError) -> &'static str {
    match err {
        LaunchError::Grid { parameter, .. } => parameter,
        other => panic!("expected a grid error, got {other}"),
    }
}

#[test]
fn launch_parameters_out_of_range_are_errors_before_running() {
    let p = small_kernel();
    let err = Launch::new(&p).simd(8).groups(0).run().unwrap_err();
    assert_eq!(grid_parameter(&err), "groups");
    assert_eq!(err.to_string(), "groups: a launch needs at least 1 group");
    let err = Launch::new(&p)
        .simd(8)
        .threads_per_group(0)
        .run()
        .unwrap_err();
    assert_eq!(grid_parameter(&err), "threads_per_group");
    for simd in [0, 3, 7, 12, 33, 64] {
        let err = Launch::new(&p).simd(simd).run().unwrap_err();
        assert_eq!(grid_parameter(&err), "simd");
        assert_eq!(
            err.to_string(),
            format!("simd: SIMD width {simd} is not one of 1, 2, 4, 8, 16 or 32")
        );
    }
    for simd in SIMD_WIDTHS {
        // Every accepted width runs (the kernel writes 8 elements of X whatever the width).
        Launch::new(&p)
            .simd(simd)
            .run()
            .expect("a valid width runs");
    }
    let err = Launch::new(&p)
        .simd(8)
        .groups(1 << 16)
        .threads_per_group(1 << 16)
        .run()
        .unwrap_err();
    assert_eq!(grid_parameter(&err), "groups");
}

#[test]
fn slm_above_the_load_limit_is_an_error() {
    let options = LoadOptions {
        max_slm_bytes: 4096,
        ..LoadOptions::default()
    };
    let p = Program::from_text(&movs(1), &options).expect("loads");
    Launch::new(&p)
        .simd(8)
        .slm_size(4096)
        .run()
        .expect("at the limit");
    let err = Launch::new(&p).simd(8).slm_size(4097).run().unwrap_err();
    assert_eq!(grid_parameter(&err), "slm_size");
    assert!(err.to_string().contains("limit of 4096 bytes"), "{err}");
    // The default limit (1 MiB) stops a 2 GB request before it is allocated.
    let p = small_kernel();
    let err = Launch::new(&p)
        .simd(8)
        .slm_size(2_000_000_000)
        .run()
        .unwrap_err();
    assert_eq!(grid_parameter(&err), "slm_size");
    let err = Launch::new(&p)
        .simd(8)
        .slm_size(99_999_999_999)
        .run()
        .unwrap_err();
    assert_eq!(grid_parameter(&err), "slm_size");
}

#[test]
fn the_memory_limit_is_checked_before_allocating() {
    assert_eq!(DEFAULT_MAX_MEMORY, 4 << 30);
    let p = small_kernel();
    // 2^32 - 1 groups: the results alone would take hundreds of GB.
    let err = Launch::new(&p).simd(8).groups(u32::MAX).run().unwrap_err();
    let LaunchError::MemoryLimit { needed, limit, .. } = err else {
        panic!("expected the memory limit, got {err}");
    };
    assert_eq!(limit, DEFAULT_MAX_MEMORY);
    assert!(needed > u64::from(u32::MAX) * 8, "{needed}");
    // One group with 64 KiB of SLM: at least 64 Ki bytes, so a 60 KiB cap refuses it and a
    // 1 MiB cap lets it run.
    let launch = || Launch::new(&p).simd(8).slm_size(64 << 10);
    let err = launch().max_memory(60 << 10).run().unwrap_err();
    let LaunchError::MemoryLimit { needed, limit, .. } = &err else {
        panic!("expected the memory limit, got {err}");
    };
    assert_eq!(*limit, 60 << 10);
    assert!(*needed >= 64 << 10, "{needed}");
    assert!(
        err.to_string().contains("SLM 65536 bytes x 1 groups"),
        "{err}"
    );
    launch().max_memory(1 << 20).run().expect("fits 1 MiB");
    // Captured variables count once per thread: 1000 groups of X (32 bytes, twice with its
    // definedness) need more than 64 KB.
    let err = Launch::new(&p)
        .simd(8)
        .groups(1000)
        .capture("X")
        .max_memory(64_000)
        .run()
        .unwrap_err();
    assert!(matches!(err, LaunchError::MemoryLimit { .. }), "{err}");
}
