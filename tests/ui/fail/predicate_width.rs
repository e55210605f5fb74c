// A predicate narrower than the execution size is a warning (real kernels do it); this test
// turns warnings into errors to show where it points.
#![deny(deprecated)]

fn main() {
    let _k = visa::isa! {
        kernel k<16>(a: vector<d>) {
            .decl p v_type=P num_elts=8
            cmp.lt (M1, 16) p a(0,0)<1;1,0> 0x4:d
            (p) mov (M1, 16) a(0,0)<1> 0x1:d
        }
    };
}
