//! The five kernels of the shared assembly corpus, run with the bindings and expected results
//! their headers state (expectations computed here by plain Rust loops).

use visa_isa::ast::ElemType;
use visa_runtime::{Launch, LoadOptions, Program, Svm};

fn kernel(name: &str) -> Option<String> {
    let path = visa_testutil::shared(&format!("asm-corpus/kernels/{name}"))?;
    Some(std::fs::read_to_string(path).expect("corpus kernel is readable"))
}

/// `$N` placeholders of VC inline assembly stand for whole operands: destination operands
/// (the first operand of an instruction) become `VN(0,0)<1>`, sources `VN(0,0)<1;1,0>`.
fn expand_vc_placeholders(src: &str) -> String {
    let mut out = String::new();
    for line in src.lines() {
        let mut words: Vec<String> = Vec::new();
        for word in line.split(' ') {
            if let Some(n) = word.strip_prefix('$') {
                // The destination is the operand right after the execution size `(M1, 8)`.
                if words.last().is_some_and(|w| w.ends_with(')')) {
                    words.push(format!("ARG{n}(0,0)<1>"));
                } else {
                    words.push(format!("ARG{n}(0,0)<1;1,0>"));
                }
            } else {
                words.push(word.to_string());
            }
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

#[test]
fn single_basic_block_copies_through_svm() {
    let Some(src) = kernel("cs_single_basic_block.visaasm") else {
        return;
    };
    let options =
        LoadOptions::default()
            .param("%0", ElemType::Uq, 16)
            .param("%1", ElemType::Uq, 16);
    let program = Program::from_text(&src, &options).expect("loads");
    let items = 64usize;
    let input: Vec<u32> = (0..items as u32).map(|i| i * 7 + 3).collect();
    let mut svm = Svm::new();
    let src_ptr = svm.alloc_from(&input);
    let dst_ptr = svm.alloc_from(&vec![0u32; items]);
    Launch::new(&program)
        .simd(16)
        .groups(4)
        .svm(&svm)
        .bind_svm_lanes("%0", src_ptr, 4)
        .bind_svm_lanes("%1", dst_ptr, 4)
        .run()
        .expect("runs");
    assert_eq!(svm.read_vec::<u32>(dst_ptr, items).unwrap(), input);
}

#[test]
fn template_var_decl_computes_dst_minus_product_times_difference() {
    let Some(src) = kernel("cs_template_var_decl.visaasm") else {
        return;
    };
    let options = LoadOptions::default()
        .param("%0", ElemType::D, 16)
        .param("%1", ElemType::D, 16)
        .param("%2", ElemType::D, 16);
    let program = Program::from_text(&src, &options).expect("loads");
    let n = 32;
    let dst: Vec<i32> = (0..n).map(|i| 100 - 3 * i).collect();
    let src2: Vec<i32> = (0..n).map(|i| i - 5).collect();
    let src1: Vec<i32> = (0..n).map(|i| 2 * i + 1).collect();
    let result = Launch::new(&program)
        .simd(16)
        .groups(2)
        .bind_vector("%0", &dst)
        .bind_vector("%1", &src2)
        .bind_vector("%2", &src1)
        .run()
        .expect("runs");
    // tmp = s2 * s1; d = d - tmp; tmp2 = s2 - s1; d = d * tmp2   (%1 = src2, %2 = src1)
    let expected: Vec<i32> = (0..n as usize)
        .map(|i| {
            let d = dst[i].wrapping_sub(src2[i].wrapping_mul(src1[i]));
            d.wrapping_mul(src2[i].wrapping_sub(src1[i]))
        })
        .collect();
    assert_eq!(result.vector::<i32>("%0").unwrap(), expected);
}

#[test]
fn decl_in_scope_multiplies() {
    let Some(src) = kernel("llvm_asm_decl_in_scope.visaasm") else {
        return;
    };
    let options = LoadOptions::default()
        .param("%0", ElemType::D, 16)
        .param("%1", ElemType::D, 16)
        .param("%2", ElemType::D, 16);
    let program = Program::from_text(&src, &options).expect("loads");
    let n = 48;
    let a: Vec<i32> = (0..n).collect();
    let b = vec![2i32; n as usize];
    let c = vec![0i32; n as usize];
    let result = Launch::new(&program)
        .simd(16)
        .groups(3)
        .bind_vector("%0", &c)
        .bind_vector("%1", &a)
        .bind_vector("%2", &b)
        .run()
        .expect("runs");
    let expected: Vec<i32> = (0..n as usize).map(|i| a[i] * b[i]).collect();
    assert_eq!(result.vector::<i32>("%0").unwrap(), expected);
}

#[test]
fn letter_example_increments_through_usm() {
    let Some(src) = kernel("llvm_letter_example.visaasm") else {
        return;
    };
    let options = LoadOptions::default().param("%0", ElemType::Uq, 16);
    let program = Program::from_text(&src, &options).expect("loads");
    let n = 80usize;
    let mut svm = Svm::new();
    let a = svm.alloc_from(&(0..n as i32).collect::<Vec<_>>());
    Launch::new(&program)
        .simd(16)
        .groups(5)
        .svm(&svm)
        .bind_svm_lanes("%0", a, 4)
        .run()
        .expect("runs");
    let expected: Vec<i32> = (0..n as i32).map(|i| i + 1).collect();
    assert_eq!(svm.read_vec::<i32>(a, n).unwrap(), expected);
}

#[test]
fn igc_inline_asm_adds_where_the_predicate_mask_is_set() {
    let Some(src) = kernel("igc_inline_asm_2.visaasm") else {
        return;
    };
    // "=r,r,r,r": $0 output, $1 $2 $3 inputs, SIMD8 ud vectors.
    let src = expand_vc_placeholders(&src);
    let mut options = LoadOptions::default();
    for n in 0..4 {
        options = options.param(&format!("ARG{n}"), ElemType::Ud, 8);
    }
    let program = Program::from_text(&src, &options).expect("loads");
    let s1: Vec<u32> = (0..8).map(|i| 10 * i).collect();
    let s2: Vec<u32> = (0..8).map(|i| 1000 + i).collect();
    let mask: Vec<u32> = vec![1, 0, 1, 1, 0, 0, 1, 0];
    let result = Launch::new(&program)
        .simd(8)
        .bind_vector("ARG0", &[0u32; 8])
        .bind_vector("ARG1", &s1)
        .bind_vector("ARG2", &s2)
        .bind_vector("ARG3", &mask)
        .run()
        .expect("runs");
    // $0 = 1 everywhere, then $1 + $2 in the lanes whose mask bit (bit 0 of $3) is set.
    let expected: Vec<u32> = (0..8)
        .map(|i| if mask[i] & 1 == 1 { s1[i] + s2[i] } else { 1 })
        .collect();
    assert_eq!(result.vector::<u32>("ARG0").unwrap(), expected);
}
