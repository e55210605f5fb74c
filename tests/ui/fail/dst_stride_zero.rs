fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            mov (M1, 16) a(0,0)<0> 0x1:d
        }
    };
}
