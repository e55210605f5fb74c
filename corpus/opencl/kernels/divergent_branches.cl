__kernel void divergent_branches(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int v = in[i], r;
  switch (v & 3) {
  case 0: r = v * 2; break;
  case 1: r = v - 7; if (v > 100) r = -r; break;
  case 2: { r = 0; for (int k = 0; k < (v & 15); ++k) r += k * v; } break;
  default: r = v ^ 0x1234; break;
  }
  if (i & 1) r += 1;
  out[i] = r;
}
