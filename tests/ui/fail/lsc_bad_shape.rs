fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: svm) {
            .decl A v_type=G type=uq num_elts=16 align=GRF
            .decl V v_type=G type=d num_elts=64 align=GRF
            lsc_load.ugm (M1, 16) V:d32x5 flat[A]:a64
        }
    };
}
