__kernel void jacobi_2d(__global const float* in, __global float* out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[y * w + x] = in[y * w + x];
    return;
  }
  out[y * w + x] = 0.2f * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}
