fn main() {
    let _zero = visa::isa! {
        kernel k<16>(a: vector<w, 0>) {
            mov (M1, 16) a(0,0)<1> 0x1:w
        }
    };
    let _uniform = visa::isa! {
        kernel k<16>(a: uniform<w, 2>) {
            mov (M1, 1) a(0,0)<1> 0x1:w
        }
    };
}
