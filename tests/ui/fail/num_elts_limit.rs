fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            .decl big v_type=G type=d num_elts=8193
            mov (M1, 16) a(0,0)<1> big(0,0)<1;1,0>
        }
    };
}
