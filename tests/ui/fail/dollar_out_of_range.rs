fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            mov (M1, 16) $0(0,0)<1> $2(0,0)<1;1,0>
        }
    };
}
