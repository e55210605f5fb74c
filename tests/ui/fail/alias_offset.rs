fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            .decl base v_type=G type=d num_elts=16 align=GRF
            .decl view v_type=G type=d num_elts=8 alias=<base, 64>
            mov (M1, 8) view(0,0)<1> 0x1:d
        }
    };
}
