__kernel void int_builtins(__global const uint* a, __global const uint* b, __global uint* out) {
  int i = get_global_id(0);
  uint x = a[i], y = b[i];
  out[8 * i + 0] = mul_hi(x, y);
  out[8 * i + 1] = rotate(x, y);
  out[8 * i + 2] = clz(x);
  out[8 * i + 3] = popcount(x);
  out[8 * i + 4] = abs_diff((int)x, (int)y);
  out[8 * i + 5] = add_sat(x, y);
  out[8 * i + 6] = (uint)sub_sat((int)x, (int)y);
  out[8 * i + 7] = mad24(x & 0xffffff, y & 0xffffff, x) ^ hadd(x, y) ^ rhadd(x, y);
}
