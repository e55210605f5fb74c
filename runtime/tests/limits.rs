//! Resource limits as data: instruction and declaration counts and SLM size at load time
//! ([`LoadOptions`]), SVM allocation size ([`Svm`]) and fuel ([`Launch::fuel`]).

use visa_isa::ast::Span;
use visa_runtime::{DEFAULT_FUEL, Launch, LoadOptions, Program, Svm, SvmAllocError, TrapKind};

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
