fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            mov (M1, 3) a(0,0)<1> 0x1:d
        }
    };
}
