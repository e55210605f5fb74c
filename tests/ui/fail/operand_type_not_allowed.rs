// An operand type the compiler's verifier rejects (SIN takes F or HF) is an error; one only the
// instruction's document rules out (GATHER_SCALED.md lists UD offsets) is a warning naming the
// document, since the compiler accepts it.
fn main() {
    let _k = visa::isa! {
        kernel k<16>(buf: surface, offs: vector<f>, dst: vector<ud>) {
            gather_scaled.4 (M1, 16) buf 0x0:ud offs.0 dst.0
            sin (M1, 16) dst(0,0)<1> dst(0,0)<1;1,0>
        }
    };
}
