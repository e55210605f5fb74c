fn main() {
    let _k = visa::isa! {
        kernel k<16>(buf: surface, offs: vector<ud>, dst: vector<ud>) {
            gather_scaled.3 (M1, 16) buf 0x0:ud offs.0 dst.0
        }
    };
}
