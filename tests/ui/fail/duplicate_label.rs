fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            again:
            mov (M1, 16) a(0,0)<1> 0x1:d
            again:
            jmp (M1, 1) again
        }
    };
}
