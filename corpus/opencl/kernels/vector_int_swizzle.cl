__kernel void vector_int_swizzle(__global const int8* a, __global int4* lo, __global int4* hi, __global uchar4* packed) {
  int i = get_global_id(0);
  int8 v = a[i];
  lo[i] = v.lo + v.s7654;
  hi[i] = v.odd * v.even;
  packed[i] = convert_uchar4_sat(v.s0246);
}
