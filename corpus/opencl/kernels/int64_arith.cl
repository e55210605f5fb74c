__kernel void int64_arith(__global const long* a, __global const long* b, __global long* out) {
  int i = get_global_id(0);
  long x = a[i], y = b[i];
  out[6 * i + 0] = x * y;
  out[6 * i + 1] = x + (y << 7);
  out[6 * i + 2] = x >> (y & 63);
  out[6 * i + 3] = (long)((ulong)x >> (y & 63));
  out[6 * i + 4] = mul_hi(x, y);
  out[6 * i + 5] = x < y ? x : y ^ 0x5555555555555555L;
}
