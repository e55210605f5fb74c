fn main() {
    let _k = visa::isa! {
        kernel k<16>() {
            .decl U v_type=G type=ud num_elts=16 align=GRF
            .decl D v_type=G type=ud num_elts=32 align=GRF
            lsc_store_quad.tgm (M1, 16) bti(0x7)[U]:a32 D:d32.yz
        }
    };
}
