fn main() {
    let _k = visa::isa! {
        kernel k<12>(a: vector<d>) {
            mov (M1, 8) a(0,0)<1> 0x1:d
        }
    };
}
