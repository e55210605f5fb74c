// The shared example kernels, pasted verbatim inside a kernel header that states their bindings.
fn main() {
    let _single_basic_block = visa::isa! {
        kernel test_single_basic_block<16>(p_src: svm, p_dst: svm) {
            {
            .decl tmp v_type=G type=d num_elts=16 align=hword
            svm_gather.4.1 (M1, 16) %0.0 tmp.0
            svm_scatter.4.1 (M1, 16) %1.0 tmp.0
            }
        }
    };
    let _template_var_decl = visa::isa! {
        kernel test_template_var_decl<16>(dst: vector<d>, src2: vector<d>, src1: vector<d>) {
            .decl tmp1 v_type=G type=d num_elts=16 align=GRF
            mul (M1, 16) tmp1(0,0)<1> %1(0,0)<1;1,0> %2(0,0)<1;1,0>
            add (M1, 16) %0(0,0)<1> %0(0,0)<1;1,0> (-)tmp1(0,0)<1;1,0>
            .decl tmp2 v_type=G type=d num_elts=16 align=GRF alias=<tmp1, 0>
            add (M1, 16) tmp2(0,0)<1> %1(0,0)<1;1,0> (-)%2(0,0)<1;1,0>
            mul (M1, 16) %0(0,0)<1> %0(0,0)<1;1,0> tmp2(0,0)<1;1,0>
        }
    };
    let _inline_asm_2 = visa::isa! {
        kernel inline_asm<8>(out: vector<ud>, a: vector<ud>, b: vector<ud>, c: vector<ud>) {
            {
            .decl P1 v_type=P num_elts=8
            mov (M1, 8) $0 0x1:ud
            setp (M1_NM, 8) P1 $3
            (P1) add (M1_NM, 8) $0 $1 $2
            }
        }
    };
    let _decl_in_scope = visa::isa! {
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
    let _letter_example = visa::isa! {
        kernel letter_example<16>(a: svm) {
            {
            .decl V52 v_type=G type=d num_elts=16 align=GRF
            svm_gather.4.1 (M1, 16) %0.0 V52.0
            add(M1, 16) V52(0, 0)<1> V52(0, 0)<1; 1, 0> 0x1:w
            svm_scatter.4.1 (M1, 16) %0.0 V52.0
            }
        }
    };
}
