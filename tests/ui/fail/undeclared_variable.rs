fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            add (M1, 16) a(0,0)<1> a(0,0)<1;1,0> tmp(0,0)<1;1,0>
        }
    };
}
