fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            jmp (M1, 1) nowhere
        }
    };
}
