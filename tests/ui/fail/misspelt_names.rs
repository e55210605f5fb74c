fn main() {
    let _k = visa::isa! {
        kernel k<16>(counter: vector<d>) {
            add (M1, 16) counter(0,0)<1> countr(0,0)<1;1,0> 0x1:d
            jmp (M1, 1) LOOP_EDN
            LOOP_END:
        }
    };
}
