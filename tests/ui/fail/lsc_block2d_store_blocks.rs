fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: svm) {
            .decl BASE v_type=G type=uq num_elts=1
            .decl TILE v_type=G type=d num_elts=128 align=GRF
            lsc_store_block2d.ugm (M1, 1) flat[BASE,0x3F,0x7,0x3F,0x0,0x0] TILE:d32.2x16x8nn
        }
    };
}
