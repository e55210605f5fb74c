//! The extended ALU set: division, rotates, bit counting and bit fields, three-source integer
//! operations, rounding and the math functions. Expected values are worked out by hand from the
//! documents' rules or computed by plain Rust reference code (`u32::rotate_left`, IEEE `f32`
//! arithmetic, literal constants), never by the interpreter's own helpers.

mod common;

use common::{program, program_with};
use visa_runtime::{Element, Launch, LoadOptions, Program};

type Bind = Box<dyn for<'a> Fn(Launch<'a>) -> Launch<'a>>;

/// A one-instruction kernel over `n` lanes: inputs are bound per work-item, `D` is the result.
struct Kernel {
    n: usize,
    decls: String,
    binds: Vec<Bind>,
    cr0: u32,
    /// Load without the documents' own rules as errors (`LoadOptions::strict_docs(false)`),
    /// to test the runtime's
    /// semantics for combinations the documents do not list.
    extended: bool,
}

impl Kernel {
    fn new(n: usize) -> Self {
        Kernel {
            n,
            decls: String::new(),
            binds: Vec::new(),
            cr0: 0,
            extended: false,
        }
    }

    fn extended(mut self) -> Self {
        self.extended = true;
        self
    }

    fn options(&self) -> LoadOptions {
        LoadOptions::default().strict_docs(!self.extended)
    }

    fn input<T: Element + Copy + 'static>(mut self, name: &str, values: &[T]) -> Self {
        assert_eq!(values.len(), self.n);
        self.decls.push_str(&format!(
            ".decl {name} v_type=G type={} num_elts={} align=GRF\n",
            T::TYPE,
            self.n
        ));
        let name = name.to_string();
        let values = values.to_vec();
        self.binds
            .push(Box::new(move |launch| launch.bind_vector(&name, &values)));
        self
    }

    fn cr0(mut self, cr0: u32) -> Self {
        self.cr0 = cr0;
        self
    }

    fn source(&self, dst_ty: &str, dst_elts: usize, line: &str) -> String {
        format!(
            "{}.decl D v_type=G type={dst_ty} num_elts={dst_elts} align=GRF\n{line}\n",
            self.decls
        )
    }

    /// Runs `line` (which writes `D`) and returns `D` per work-item.
    fn run<D: Element>(&self, line: &str) -> Vec<D> {
        let p = program_with(
            &self.source(&D::TYPE.to_string(), self.n, line),
            &self.options(),
        );
        self.launch(&p).vector::<D>("D").unwrap()
    }

    fn launch(&self, p: &Program) -> visa_runtime::LaunchResult {
        let mut launch = Launch::new(p)
            .simd(self.n as u32)
            .cr0(self.cr0)
            .capture("D");
        for bind in &self.binds {
            launch = bind(launch);
        }
        launch
            .run()
            .unwrap_or_else(|e| panic!("launch failed: {e}"))
    }

    /// Whether `line` is rejected at load time with the default options (the documents' own
    /// rules are warnings) with a message containing `needle`, and with
    /// [`LoadOptions::strict_docs`] in any case.
    fn rejects(&self, dst_ty: &str, line: &str, needle: &str) {
        let src = self.source(dst_ty, self.n, line);
        let without_maps = LoadOptions::default();
        match Program::from_text(&src, &without_maps) {
            Ok(_) => panic!("expected a load error for {line}"),
            Err(e) => assert!(e.to_string().contains(needle), "{e}"),
        }
        assert!(
            Program::from_text(&src, &LoadOptions::default().strict_docs(true)).is_err(),
            "{line}"
        );
    }
}

const N: usize = 8;

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|f| f.to_bits()).collect()
}

/// Distance in units of the last place between two finite f32 of the same sign.
fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

#[test]
fn integer_division_truncates_and_follows_the_zero_divisor_rules() {
    let a: [i32; N] = [7, -7, 7, -7, 5, i32::MIN, i32::MIN, 0];
    let b: [i32; N] = [2, 2, -2, -2, 0, -1, 0, 3];
    let k = Kernel::new(N).input("A", &a).input("B", &b);
    let q: Vec<i32> = k.run("div (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    // 5/0 gives all ones (-1 as D); INT_MIN / -1 = 2^31 wraps to INT_MIN.
    assert_eq!(q, [3, -3, -3, 3, -1, i32::MIN, -1, 0]);
    let r: Vec<i32> = k.run("mod (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    // The remainder has the dividend's sign; a zero divisor gives the dividend.
    assert_eq!(r, [1, -1, 1, -1, 5, 0, i32::MIN, 0]);
    // The identity dividend = divisor * quotient + remainder holds modulo 2^32.
    for i in 0..N {
        assert_eq!(b[i].wrapping_mul(q[i]).wrapping_add(r[i]), a[i], "lane {i}");
    }
}

#[test]
fn unsigned_and_mixed_division() {
    let a = [u32::MAX, 100, 7, 0, 1, 2, 3, 4];
    let b = [-2i32, 7, 0, 5, 1, 2, 3, 4];
    // 64-bit and mixed-sign results are outside DIV's type maps: the runtime's exact
    // semantics, loaded without them.
    let k = Kernel::new(N).input("A", &a).input("B", &b).extended();
    // Each source is extended by its own signedness: 4294967295 / -2 = -2147483647.
    let q: Vec<i64> = k.run("div (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    assert_eq!(q, [-2147483647, 14, -1, 0, 1, 1, 1, 1]);
    let r: Vec<u32> = k.run("mod (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    assert_eq!(r, [1, 2, 7, 0, 0, 0, 0, 0]);
    let uq: Vec<u32> = k.run("div (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    // 7 / 0 into UD: all ones.
    assert_eq!(uq[2], u32::MAX);
    // Narrow destination: all ones of its own width.
    let w: Vec<u16> = k.run("div (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    assert_eq!(w[2], 0xFFFF);
}

#[test]
fn division_with_source_modifiers() {
    let a = [i32::MIN, -9, 9, 10, 11, 12, 13, 14];
    let b = [1, 2, -2, 3, 3, 3, 3, 3];
    // A Q destination is outside DIV's type maps (runtime semantics, loaded without them).
    let k = Kernel::new(N).input("A", &a).input("B", &b).extended();
    // (-)INT_MIN is 2^31 exactly; into a Q destination it is kept.
    let q: Vec<i64> = k.run("div (M1, 8) D(0,0)<1> (-)A(0,0)<1;1,0> (abs)B(0,0)<1;1,0>");
    assert_eq!(q, [2147483648, 4, -4, -3, -3, -4, -4, -4]);
}

#[test]
fn float_division_is_ieee() {
    let a = [7.0f32, 1.0, 0.0, -1.0, f32::INFINITY, 1.0, f32::NAN, 1.0];
    let b = [
        2.0f32,
        0.0,
        0.0,
        0.0,
        f32::INFINITY,
        3.0,
        1.0,
        -f32::INFINITY,
    ];
    let k = Kernel::new(N).input("A", &a).input("B", &b);
    let q: Vec<f32> = k.run("div (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    assert_eq!(q[0], 3.5);
    assert_eq!(q[1], f32::INFINITY);
    assert!(q[2].is_nan());
    assert_eq!(q[3], f32::NEG_INFINITY);
    assert!(q[4].is_nan());
    assert_eq!(q[5].to_bits(), (1.0f32 / 3.0).to_bits()); // correctly rounded
    assert!(q[6].is_nan());
    assert_eq!(q[7].to_bits(), (-0.0f32).to_bits());
    let s: Vec<f32> = k.run("div.sat (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    assert_eq!(&s[..6], &[1.0, 1.0, 0.0, 0.0, 0.0, 1.0f32 / 3.0]);
}

#[test]
fn rotates_use_the_count_modulo_the_width() {
    let a: Vec<u32> = vec![
        0x8000_0001,
        0x1234_5678,
        0xDEAD_BEEF,
        1,
        0xF0F0_F0F0,
        7,
        9,
        0,
    ];
    let n: Vec<i32> = vec![1, 33, -1, 31, 32, 0, 64, 5];
    let k = Kernel::new(N).input("A", &a).input("N", &n);
    let l: Vec<u32> = k.run("rol (M1, 8) D(0,0)<1> A(0,0)<1;1,0> N(0,0)<1;1,0>");
    let r: Vec<u32> = k.run("ror (M1, 8) D(0,0)<1> A(0,0)<1;1,0> N(0,0)<1;1,0>");
    for i in 0..N {
        let count = (n[i] as u32) % 32;
        assert_eq!(l[i], a[i].rotate_left(count), "rol lane {i}");
        assert_eq!(r[i], a[i].rotate_right(count), "ror lane {i}");
    }
    // 16-bit rotation in the width of a UW source.
    let w: Vec<u16> = vec![0x8001, 0x1234, 0xBEEF, 1, 2, 3, 4, 5];
    let k = Kernel::new(N).input("A", &w).input("N", &n);
    let l: Vec<u16> = k.run("rol (M1, 8) D(0,0)<1> A(0,0)<1;1,0> N(0,0)<1;1,0>");
    for i in 0..N {
        assert_eq!(l[i], w[i].rotate_left((n[i] as u32) % 16), "uw lane {i}");
    }
    // The compiler accepts (-) and (abs) on rotates (as on shifts); this runtime does not
    // execute them.
    k.rejects(
        "uw",
        "rol (M1, 8) D(0,0)<1> (-)A(0,0)<1;1,0> N(0,0)<1;1,0>",
        "not executed by this runtime",
    );
}

#[test]
fn bit_scans_and_counts() {
    let x: Vec<u32> = vec![
        0,
        1,
        0x8000_0000,
        u32::MAX,
        0x0001_0000,
        0x4000_0000,
        0xFFFF_FFFE,
        6,
    ];
    let k = Kernel::new(N).input("X", &x);
    let lzd: Vec<u32> = k.run("lzd (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(lzd, [32, 31, 0, 0, 15, 1, 0, 29]);
    let fbh: Vec<u32> = k.run("fbh (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(fbh, [u32::MAX, 31, 0, 0, 15, 1, 0, 29]);
    let fbl: Vec<u32> = k.run("fbl (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(fbl, [u32::MAX, 0, 31, 0, 16, 30, 1, 1]);
    let cbit: Vec<u32> = k.run("cbit (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(cbit, [0, 1, 1, 32, 1, 1, 31, 2]);
    let rev: Vec<u32> = k.run("bfrev (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    let expected: Vec<u32> = x.iter().map(|v| v.reverse_bits()).collect();
    assert_eq!(rev, expected);
    // Signed FBH counts leading sign bits: 0 and -1 give all ones, -2 gives 31.
    let d: Vec<i32> = vec![0, -1, -2, 1, 0x4000_0000, i32::MIN, 0x0000_FFFF, -65536];
    let fbh: Vec<u32> = Kernel::new(N)
        .input("X", &d)
        .run("fbh (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(fbh, [u32::MAX, u32::MAX, 31, 31, 1, 1, 16, 16]);
    // CBIT counts only the bits of the source element.
    let b: Vec<u8> = vec![0, 1, 0xFF, 0x80, 0x55, 3, 7, 0xF0];
    let cbit: Vec<u32> = Kernel::new(N)
        .input("X", &b)
        .run("cbit (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(cbit, [0, 1, 8, 1, 4, 2, 3, 4]);
}

#[test]
fn bit_field_extract_and_insert() {
    let width: Vec<u32> = vec![4, 4, 0, 8, 8, 31, 32, 1];
    let offset: Vec<u32> = vec![4, 4, 3, 28, 28, 1, 0, 31];
    let value: Vec<u32> = vec![
        0xA0,
        0x50,
        u32::MAX,
        0xF000_0000,
        0x7000_0000,
        u32::MAX,
        5,
        0x8000_0000,
    ];
    // A D result from UD sources mixes BFE's two type maps (UD <- UD, D <- D): loaded
    // without them, the destination's signedness decides the extension.
    let k = Kernel::new(N)
        .input("W", &width)
        .input("O", &offset)
        .input("V", &value)
        .extended();
    let line = "bfe (M1, 8) D(0,0)<1> W(0,0)<1;1,0> O(0,0)<1;1,0> V(0,0)<1;1,0>";
    let signed: Vec<i32> = k.run(line);
    // 0b1010 -> -6; 0b0101 -> 5; width 0 -> 0; offset 28 keeps 4 bits (0xF -> -1, 0x7 -> 7);
    // width 31 at offset 1 of all ones -> -1; width 32 reads as 0 -> 0; bit 31 alone -> -1.
    assert_eq!(signed, [-6, 5, 0, -1, 7, -1, 0, -1]);
    let unsigned: Vec<u32> = k.run(line);
    assert_eq!(unsigned, [10, 5, 0, 15, 7, 0x7FFF_FFFF, 0, 1]);

    let field: Vec<u32> = vec![0xAB, 0xAB, 0xAB, 0xFFFF, 1, 0xAB, 0x3, 0];
    let base: Vec<u32> = vec![u32::MAX, 0, 0x1234_5678, 0, 0, 0x1111_1111, 0xF0, u32::MAX];
    let width: Vec<u32> = vec![8, 8, 0, 16, 1, 4, 2, 31];
    let offset: Vec<u32> = vec![4, 28, 7, 8, 31, 32, 2, 0];
    let k = Kernel::new(N)
        .input("W", &width)
        .input("O", &offset)
        .input("F", &field)
        .input("B", &base);
    let inserted: Vec<u32> =
        k.run("bfi (M1, 8) D(0,0)<1> W(0,0)<1;1,0> O(0,0)<1;1,0> F(0,0)<1;1,0> B(0,0)<1;1,0>");
    // Offset 32 reads as 0; bits pushed past bit 31 are lost.
    assert_eq!(
        inserted,
        [
            0xFFFF_FABF,
            0xB000_0000,
            0x1234_5678,
            0x00FF_FF00,
            0x8000_0000,
            0x1111_111B,
            0xFC,
            0x8000_0000
        ]
    );
}

#[test]
fn add3_is_exact_before_wrapping_or_saturating() {
    let a: Vec<i32> = vec![i32::MAX, i32::MIN, 1, -5, i32::MAX, 0, 100, -100];
    let b: Vec<i32> = vec![i32::MAX, i32::MIN, 2, 5, 1, 0, 200, -200];
    let c: Vec<i32> = vec![i32::MIN, i32::MAX, 3, 0, -1, 0, 300, -300];
    let k = Kernel::new(N).input("A", &a).input("B", &b).input("C", &c);
    let wrap: Vec<i32> = k.run("add3 (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>");
    let sat: Vec<i32> =
        k.run("add3.sat (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>");
    for i in 0..N {
        let exact = i64::from(a[i]) + i64::from(b[i]) + i64::from(c[i]);
        assert_eq!(wrap[i], exact as i32, "wrap lane {i}");
        assert_eq!(
            sat[i],
            exact.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
            "sat lane {i}"
        );
    }
    // The intermediate 2^32 - 2 of lane 0 never saturates: the exact sum is 2^31 - 2.
    assert_eq!(sat[0], i32::MAX - 1);
    let neg: Vec<i32> =
        k.run("add3 (M1, 8) D(0,0)<1> (-)A(0,0)<1;1,0> B(0,0)<1;1,0> (abs)C(0,0)<1;1,0>");
    assert_eq!(neg[2], -1 + 2 + 3);
}

#[test]
fn bfn_applies_the_truth_table_per_bit() {
    let a: Vec<u32> = vec![0x1234_5678, u32::MAX, 0, 0xF0F0_F0F0, 0xAAAA_AAAA, 1, 2, 3];
    let b: Vec<u32> = vec![0x9ABC_DEF0, 0, u32::MAX, 0xFF00_FF00, 0x5555_5555, 3, 5, 6];
    let c: Vec<u32> = vec![
        0x0F0F_0F0F,
        0x1234_5678,
        0xFFFF_0000,
        0xCCCC_CCCC,
        0xFFFF_FFFF,
        7,
        1,
        0,
    ];
    let k = Kernel::new(N).input("A", &a).input("B", &b).input("C", &c);
    type Reference = fn(u32, u32, u32) -> u32;
    let tables: [(&str, Reference); 6] = [
        ("80", |a, b, c| a & b & c),
        ("fe", |a, b, c| a | b | c),
        ("96", |a, b, c| a ^ b ^ c),
        ("E8", |a, b, c| (a & b) | (a & c) | (b & c)),
        ("ca", |a, b, c| (b & c) | (a & !c)),
        ("55", |a, _, _| !a),
    ];
    for (table, reference) in tables {
        let got: Vec<u32> = k.run(&format!(
            "bfn.x{table} (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>"
        ));
        for i in 0..N {
            assert_eq!(
                got[i],
                reference(a[i], b[i], c[i]),
                "table {table} lane {i}"
            );
        }
    }
}

#[test]
fn dp4a_multiplies_bytes_by_their_own_signedness() {
    let acc: Vec<i32> = vec![0, 10, i32::MAX, i32::MIN, -1, 0, 5, 0];
    let x: Vec<i32> = vec![
        0x0102_0304,
        -1,
        0x7F7F_7F7F,
        -0x7F7F_7F80,
        0,
        0x0000_00FF,
        2,
        0x80,
    ];
    let y: Vec<u32> = vec![
        0x0101_0101,
        0xFFFF_FFFF,
        0x7F7F_7F7F,
        0x7F7F_7F7F,
        9,
        0x0000_00FF,
        3,
        0x80,
    ];
    let k = Kernel::new(N)
        .input("A", &acc)
        .input("X", &x)
        .input("Y", &y);
    let reference = |i: usize| {
        let mut sum = i64::from(acc[i]);
        for byte in 0..4 {
            let xb = i64::from((x[i] >> (8 * byte)) as i8);
            let yb = i64::from((y[i] >> (8 * byte)) as u8);
            sum += xb * yb;
        }
        sum
    };
    let wrap: Vec<i32> = k.run("dp4a (M1, 8) D(0,0)<1> A(0,0)<1;1,0> X(0,0)<1;1,0> Y(0,0)<1;1,0>");
    let sat: Vec<i32> =
        k.run("dp4a.sat (M1, 8) D(0,0)<1> A(0,0)<1;1,0> X(0,0)<1;1,0> Y(0,0)<1;1,0>");
    for i in 0..N {
        let exact = reference(i);
        assert_eq!(wrap[i], exact as i32, "lane {i}");
        assert_eq!(
            sat[i],
            exact.clamp(i32::MIN.into(), i32::MAX.into()) as i32,
            "lane {i}"
        );
    }
    // Hand-checked: 1*4 + 2*3 + 3*2 + 4*1 = 20 for lane 0 (bytes 04 03 02 01 times 1).
    assert_eq!(wrap[0], 10);
    assert_eq!(wrap[5], -255);
}

#[test]
fn madw_writes_low_and_high_blocks() {
    let a: Vec<u32> = vec![u32::MAX, 0x1234_5678, 0, 1, 2, 3, 4, 0x8000_0000];
    let b: Vec<u32> = vec![u32::MAX, 0x9ABC_DEF0, 5, 1, 2, 3, 4, 2];
    let c: Vec<u32> = vec![u32::MAX, 7, 6, 0, 0, 0, 0, 1];
    let k = Kernel::new(N).input("A", &a).input("B", &b).input("C", &c);
    // 8 channels of dwords fill one 32-byte GRF: the high block starts at element 8.
    let src = k.source(
        "ud",
        16,
        "madw (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>",
    );
    // One SIMD1 thread runs all 8 channels (NoMask) over the element-bound inputs.
    let p = program(&src.replace("madw (M1, 8)", "madw (M1_NM, 8)"));
    let r = Launch::new(&p)
        .simd(1)
        .bind_elements("A", &a)
        .bind_elements("B", &b)
        .bind_elements("C", &c)
        .capture("D")
        .run()
        .unwrap();
    let d: Vec<u32> = common::whole(&r, "D", 0);
    for i in 0..N {
        let exact = u128::from(a[i]) * u128::from(b[i]) + u128::from(c[i]);
        assert_eq!(d[i], exact as u32, "low lane {i}");
        assert_eq!(d[8 + i], (exact >> 32) as u32, "high lane {i}");
    }
    // A destination too small for the high block is a load error.
    k.rejects(
        "ud",
        "madw (M1, 8) D(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0> C(0,0)<1;1,0>",
        "too small",
    );
}

#[test]
fn rounding_to_integral_values() {
    let x = [2.7f32, -2.2, -0.5, 0.5, 2.5, -2.5, 3.5, 1e30];
    let k = Kernel::new(N).input("X", &x);
    type Rounding = fn(f32) -> f32;
    let cases: [(&str, Rounding); 4] = [
        ("rndd", f32::floor),
        ("rndu", f32::ceil),
        ("rnde", f32::round_ties_even),
        ("rndz", f32::trunc),
    ];
    for (mnemonic, reference) in cases {
        let got: Vec<f32> = k.run(&format!("{mnemonic} (M1, 8) D(0,0)<1> X(0,0)<1;1,0>"));
        let expected: Vec<f32> = x.iter().map(|v| reference(*v)).collect();
        assert_eq!(bits(&got), bits(&expected), "{mnemonic}");
    }
    // Hand-checked points of the documents, signs included.
    let d: Vec<f32> = k.run("rndd (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(&d[..4], &[2.0, -3.0, -1.0, 0.0]);
    let e: Vec<f32> = k.run("rnde (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(e[2].to_bits(), (-0.0f32).to_bits());
    assert_eq!(&e[4..7], &[2.0, -2.0, 4.0]);
    let special = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        0.0,
        1e-40,
        -1e-40,
        0.3,
    ];
    let k = Kernel::new(N).input("X", &special);
    let u: Vec<f32> = k.run("rndu (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert!(u[0].is_nan());
    // Denormals are flushed to a zero of their sign first (%cr0 = 0).
    assert_eq!(
        bits(&u[1..]),
        bits(&[f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, 0.0, -0.0, 1.0])
    );
    // rnd* need float operands.
    Kernel::new(N).input("X", &[1i32; N]).rejects(
        "d",
        "rndd (M1, 8) D(0,0)<1> X(0,0)<1;1,0>",
        "supported types are F",
    );
}

#[test]
fn frc_gives_the_fraction_above_the_floor() {
    let x = [
        2.25f32,
        -2.25,
        -(2f32.powi(-30)),
        f32::INFINITY,
        -0.0,
        5.0,
        f32::NAN,
        0.75,
    ];
    let k = Kernel::new(N).input("X", &x);
    let f: Vec<f32> = k.run("frc (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(&f[..3], &[0.25, 0.75, 1.0]);
    assert!(f[3].is_nan());
    assert_eq!(f[4].to_bits(), 0.0f32.to_bits());
    assert_eq!(f[5].to_bits(), 0.0f32.to_bits());
    assert!(f[6].is_nan());
    assert_eq!(f[7], 0.75);
    let neg: Vec<f32> = k.run("frc (M1, 8) D(0,0)<1> (-)X(0,0)<1;1,0>");
    assert_eq!(neg[0], 0.75);
}

#[test]
fn math_functions_at_exact_points() {
    let x = [8.0f32, 1.0, 0.5, 2.0, 4.0, 0.25, 1024.0, 16.0];
    let k = Kernel::new(N).input("X", &x);
    let log: Vec<f32> = k.run("log (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(log, [3.0, 0.0, -1.0, 1.0, 2.0, -2.0, 10.0, 4.0]);
    let exp: Vec<f32> = k.run("exp (M1, 8) D(0,0)<1> (-)X(0,0)<1;1,0>");
    // 2^-8, 2^-1, 2^-0.5, 2^-2, 2^-4, 2^-0.25, 2^-1024 (below F: +0), 2^-16.
    assert_eq!(exp[0], 0.00390625);
    assert_eq!(exp[1], 0.5);
    assert!(ulps(exp[2], std::f32::consts::FRAC_1_SQRT_2) <= 1);
    assert_eq!(&exp[3..5], &[0.25, 0.0625]);
    assert!(ulps(exp[5], 0.840_896_415_253_714_5f64 as f32) <= 1);
    assert_eq!(exp[6].to_bits(), 0);
    assert_eq!(exp[7], 1.0 / 65536.0);
    let sqrt: Vec<f32> = k.run("sqrt (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(sqrt[4], 2.0);
    assert_eq!(sqrt[5], 0.5);
    assert_eq!(sqrt[3], std::f32::consts::SQRT_2); // correctly rounded sqrt(2)
    assert_eq!(sqrt[0], 2.0 * std::f32::consts::SQRT_2);
    let rsqrt: Vec<f32> = k.run("rsqrt (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(rsqrt[4], 0.5);
    assert_eq!(rsqrt[7], 0.25);
    assert!(ulps(rsqrt[3], std::f32::consts::FRAC_1_SQRT_2) <= 1);
    let inv: Vec<f32> = k.run("inv (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(inv[0], 0.125);
    assert_eq!(inv[6], 1.0 / 1024.0);
    let three = Kernel::new(1).input("X", &[3.0f32]);
    let third: Vec<f32> = three.run("inv (M1, 1) D(0,0)<1> X(0,0)<0;1,0>");
    assert_eq!(third[0].to_bits(), (1.0f32 / 3.0).to_bits());
    let exp3: Vec<f32> = three.run("exp (M1, 1) D(0,0)<1> X(0,0)<0;1,0>");
    assert_eq!(exp3[0], 8.0);
}

#[test]
fn trigonometry_and_power() {
    let x = [
        0.0f32,
        -0.0,
        1.0,
        std::f32::consts::FRAC_PI_2,
        0.5,
        -3.0,
        100.0,
        1e6,
    ];
    let k = Kernel::new(N).input("X", &x);
    let sin: Vec<f32> = k.run("sin (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    let cos: Vec<f32> = k.run("cos (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(sin[0].to_bits(), 0.0f32.to_bits());
    assert_eq!(sin[1].to_bits(), (-0.0f32).to_bits());
    assert_eq!(cos[0], 1.0);
    assert_eq!(cos[1], 1.0);
    // Literal reference values of the exact functions at the F inputs.
    let sin_ref = [
        (2, 0.841_470_984_807_896_5f64),
        (4, 0.479_425_538_604_203),
        (5, -0.141_120_008_059_867_2),
        (6, -0.506_365_641_109_758_8),
    ];
    for (i, exact) in sin_ref {
        assert!(ulps(sin[i], exact as f32) <= 1, "sin lane {i}: {}", sin[i]);
    }
    assert!(ulps(cos[2], 0.540_302_305_868_139_8f64 as f32) <= 1);
    assert_eq!(sin[3], 1.0);
    let special = [
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        2.0,
        -2.0,
        -2.0,
        0.0,
        -8.0,
    ];
    let power = [1.0f32, 1.0, 0.0, 10.0, 3.0, 0.5, -1.0, 1.0 / 3.0];
    let k = Kernel::new(N).input("X", &special).input("Y", &power);
    let sin: Vec<f32> = k.run("sin (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert!(sin[0].is_nan() && sin[1].is_nan() && sin[2].is_nan());
    let pow: Vec<f32> = k.run("pow (M1, 8) D(0,0)<1> X(0,0)<1;1,0> Y(0,0)<1;1,0>");
    assert_eq!(pow[0], f32::INFINITY);
    assert_eq!(pow[1], f32::NEG_INFINITY);
    assert_eq!(pow[2], 1.0); // NaN to the power 0
    assert_eq!(pow[3], 1024.0);
    assert_eq!(pow[4], -8.0);
    assert!(pow[5].is_nan()); // negative base, fractional exponent
    assert_eq!(pow[6], f32::INFINITY); // 0 to the -1
    assert!(pow[7].is_nan());
}

#[test]
fn special_values_denormals_and_saturation() {
    let x = [
        0.0f32,
        -0.0,
        -1.0,
        f32::INFINITY,
        f32::NAN,
        1e-40,
        f32::NEG_INFINITY,
        0.5,
    ];
    let k = Kernel::new(N).input("X", &x);
    let log: Vec<f32> = k.run("log (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(&log[..2], &[f32::NEG_INFINITY, f32::NEG_INFINITY]);
    assert!(log[2].is_nan() && log[4].is_nan() && log[6].is_nan());
    assert_eq!(log[3], f32::INFINITY);
    assert_eq!(log[5], f32::NEG_INFINITY); // the denormal is flushed to +0 first
    assert_eq!(log[7], -1.0);
    let sqrt: Vec<f32> = k.run("sqrt (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(sqrt[1].to_bits(), (-0.0f32).to_bits());
    assert!(sqrt[2].is_nan() && sqrt[6].is_nan());
    let inv: Vec<f32> = k.run("inv (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(&inv[..2], &[f32::INFINITY, f32::NEG_INFINITY]);
    assert_eq!(inv[3].to_bits(), 0.0f32.to_bits());
    let rsqrt: Vec<f32> = k.run("rsqrt (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(&rsqrt[..2], &[f32::INFINITY, f32::NEG_INFINITY]);
    let exp: Vec<f32> = k.run("exp (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(&exp[..2], &[1.0, 1.0]);
    assert_eq!(exp[6].to_bits(), 0.0f32.to_bits());
    // exp2(-140) is a denormal: flushed with %cr0 = 0, kept with the F denormal bit.
    let deep = Kernel::new(1).input("X", &[-140.0f32]);
    let flushed: Vec<f32> = deep.run("exp (M1, 1) D(0,0)<1> X(0,0)<0;1,0>");
    assert_eq!(flushed[0].to_bits(), 0);
    let kept: Vec<f32> = Kernel::new(1)
        .input("X", &[-140.0f32])
        .cr0(1 << 7)
        .run("exp (M1, 1) D(0,0)<1> X(0,0)<0;1,0>");
    assert_eq!(kept[0], f32::from_bits(1 << 9) /* 2^-140 */);
    // With the keep bit the denormal input of log is used as it is: log2(2^-140) = -140.
    let log_kept: Vec<f32> = Kernel::new(1)
        .input("X", &[f32::from_bits(1 << 9) /* 2^-140 */])
        .cr0(1 << 7)
        .run("log (M1, 1) D(0,0)<1> X(0,0)<0;1,0>");
    assert_eq!(log_kept[0], -140.0);
    // .sat clamps to [0, 1] and turns NaN into 0.
    let sat: Vec<f32> = k.run("exp.sat (M1, 8) D(0,0)<1> (abs)X(0,0)<1;1,0>");
    assert_eq!(sat, [1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]);
    let sat_log: Vec<f32> = k.run("log.sat (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(sat_log, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn double_precision_math() {
    let x = [2.0f64, 9.0, -1.0, 0.1, 1e300, 3.0, 0.0, 64.0];
    // SQRT, INV and LOG list F/HF only (DF has its own instructions upstream); the runtime
    // computes them on DF when loaded without the type maps.
    let k = Kernel::new(N).input("X", &x).extended();
    let sqrt: Vec<f64> = k.run("sqrt (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(sqrt[0], std::f64::consts::SQRT_2);
    assert_eq!(sqrt[1], 3.0);
    assert!(sqrt[2].is_nan());
    assert_eq!(sqrt[4], 1e150);
    let inv: Vec<f64> = k.run("inv (M1, 8) D(0,0)<1> X(0,0)<1;1,0>");
    assert_eq!(inv[5], 1.0 / 3.0);
    assert_eq!(inv[6], f64::INFINITY);
    let div: Vec<f64> = Kernel::new(N)
        .input("X", &x)
        .input("Y", &[3.0f64; N])
        .run("div (M1, 8) D(0,0)<1> X(0,0)<1;1,0> Y(0,0)<1;1,0>");
    assert_eq!(div[3], 0.1 / 3.0);
    // LOG takes F or HF only, and the compiler's verifier enforces it (LOG.md's `Compiler
    // checks`).
    k.rejects(
        "df",
        "log (M1, 8) D(0,0)<1> X(0,0)<1;1,0>",
        "supported types are F, HF",
    );
}

#[test]
fn lrp_rounds_each_step() {
    let w = [0.25f32, 0.0, 1.0, 0.5, 0.1, 0.75, 2.0, -1.0];
    let s1 = [4.0f32, 5.0, 5.0, 1.0, 3.0, 8.0, 1.0, 1.0];
    let s2 = [8.0f32, 7.0, 7.0, 3.0, 7.0, 0.0, 1.0, 2.0];
    let k = Kernel::new(N)
        .input("W", &w)
        .input("A", &s1)
        .input("B", &s2);
    let got: Vec<f32> = k.run("lrp (M1, 8) D(0,0)<1> W(0,0)<1;1,0> A(0,0)<1;1,0> B(0,0)<1;1,0>");
    for i in 0..N {
        // Plain f32 arithmetic rounds every step, as the document's formula does.
        let t = 1.0f32 - w[i];
        let expected = s1[i] * w[i] + s2[i] * t;
        assert_eq!(got[i].to_bits(), expected.to_bits(), "lane {i}");
    }
    assert_eq!(got[0], 7.0);
    assert_eq!(got[3], 2.0);
}

#[test]
fn operand_kinds_are_checked_at_load() {
    let k = Kernel::new(N)
        .input("X", &[1.0f32; N])
        .input("I", &[1u32; N]);
    k.rejects(
        "f",
        "lzd (M1, 8) D(0,0)<1> X(0,0)<1;1,0>",
        "the compiler requires integer operands",
    );
    k.rejects(
        "ud",
        "sin (M1, 8) D(0,0)<1> I(0,0)<1;1,0>",
        "supported types are F, HF",
    );
    k.rejects(
        "ud",
        "mod (M1, 8) D(0,0)<1> X(0,0)<1;1,0> X(0,0)<1;1,0>",
        "the compiler requires integer operands",
    );
    k.rejects(
        "ud",
        "cbit (M1, 8) D(0,0)<1> (abs)I(0,0)<1;1,0>",
        "source modifiers",
    );
    k.rejects(
        "ud",
        "div.sat (M1, 8) D(0,0)<1> I(0,0)<1;1,0> I(0,0)<1;1,0>",
        ".sat needs a floating-point destination",
    );
}

#[test]
fn half_precision_math_rounds_once_to_hf() {
    let p = program(
        "
.decl X v_type=G type=hf num_elts=8 align=GRF
.decl S v_type=G type=hf num_elts=8 align=GRF
.decl I v_type=G type=hf num_elts=8 align=GRF
.decl E v_type=G type=hf num_elts=8 align=GRF
sqrt (M1, 8) S(0,0)<1> X(0,0)<1;1,0>
inv (M1, 8) I(0,0)<1> X(0,0)<1;1,0>
exp (M1, 8) E(0,0)<1> X(0,0)<1;1,0>
",
    );
    // 2.0, 0.25, 3.0, 16.0, the smallest denormal, 1.0, -0.0, 4.0 as binary16 bits.
    let x: [u16; 8] = [
        0x4000, 0x3400, 0x4200, 0x4C00, 0x0001, 0x3C00, 0x8000, 0x4400,
    ];
    let bytes: Vec<u8> = x.iter().flat_map(|h| h.to_le_bytes()).collect();
    let r = Launch::new(&p)
        .simd(8)
        .bind_vector_bytes("X", visa_isa::ast::ElemType::Hf, bytes)
        .capture("S")
        .capture("I")
        .capture("E")
        .run()
        .unwrap();
    let halves = |name: &str| -> Vec<u16> {
        r.vector_bytes(name, visa_isa::ast::ElemType::Hf)
            .unwrap()
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    // sqrt(2) = 1.41421... -> 1 + 424/1024 (0x3DA8); sqrt(0.25) = 0.5; the denormal is flushed
    // to +0 first; sqrt(-0) = -0.
    let s = halves("S");
    assert_eq!(s[0], 0x3DA8);
    assert_eq!(s[1], 0x3800);
    assert_eq!(s[3], 0x4400);
    assert_eq!(s[4], 0x0000);
    assert_eq!(s[6], 0x8000);
    assert_eq!(s[7], 0x4000);
    // 1/3 = 0.33325... (0x3555); 1/16 = 0x2C00; 1/+0 = +inf, 1/-0 = -inf.
    let i = halves("I");
    assert_eq!(i[2], 0x3555);
    assert_eq!(i[3], 0x2C00);
    assert_eq!(i[4], 0x7C00);
    assert_eq!(i[6], 0xFC00);
    // exp2(16) overflows HF to +inf; exp2(2) = 4; exp2(-0) = 1.
    let e = halves("E");
    assert_eq!(e[3], 0x7C00);
    assert_eq!(e[0], 0x4400);
    assert_eq!(e[6], 0x3C00);
}
