fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            .decl t v_type=G type=d num_elts=16 align=GRF
            .decl t v_type=G type=d num_elts=16 align=GRF
            mov (M1, 16) t(0,0)<1> a(0,0)<1;1,0>
        }
    };
}
