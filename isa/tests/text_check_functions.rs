//! The checker gives each `.global_function` object its own name space (every kernel and
//! function object has a single name space of its own): names may be declared again in the
//! next object, names of an earlier object are not visible, and duplicates inside one object
//! are still errors.

use visa_isa::text;

fn diagnostics(src: &str) -> Vec<String> {
    let module = text::parse(src).unwrap_or_else(|e| panic!("{}", e[0]));
    text::check(&module)
        .iter()
        .map(ToString::to_string)
        .collect()
}

const KERNEL: &str = ".kernel \"k\"
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
mov (M1, 8) A(0,0)<1> 0x1:ud
fcall (M1_NM, 1) f 1 0
";

#[test]
fn each_function_object_has_its_own_name_space() {
    let src = format!(
        "{KERNEL}.global_function \"f\"
.decl A v_type=G type=ud num_elts=8 alias=<%arg, 0>
add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x1:ud
fret (M1_NM, 1)
"
    );
    assert_eq!(diagnostics(&src), Vec::<String>::new());
}

#[test]
fn names_of_another_object_are_not_visible() {
    let src = format!(
        "{KERNEL}.global_function \"f\"
add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x1:ud
fret (M1_NM, 1)
"
    );
    let found = diagnostics(&src);
    assert!(
        found
            .iter()
            .any(|d| d.starts_with("6:13: error:") && d.contains("`A`")),
        "{found:?}"
    );
}

#[test]
fn duplicates_inside_one_function_are_errors() {
    let src = format!(
        "{KERNEL}.global_function \"f\"
.decl B v_type=G type=ud num_elts=8
.decl B v_type=G type=ud num_elts=8
fret (M1_NM, 1)
"
    );
    let found = diagnostics(&src);
    assert!(
        found
            .iter()
            .any(|d| d.starts_with("7:7: error:") && d.contains("already declared")),
        "{found:?}"
    );
}
