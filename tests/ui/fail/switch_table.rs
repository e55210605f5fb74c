fn main() {
    let _k = visa::isa! {
        kernel k<16>(s: uniform<ud>) {
            switchjmp (M1, 1) s(0,0)<0;1,0> (HERE, nowhere)
            HERE:
            switchjmp (M1, 1) s(0,0)<0;1,0> ()
        }
    };
}
