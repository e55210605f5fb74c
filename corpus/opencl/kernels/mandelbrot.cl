__kernel void mandelbrot(__global int* iters, int w, int h, int maxit) {
  int x = get_global_id(0), y = get_global_id(1);
  float cr = -2.0f + 2.5f * x / w, ci = -1.25f + 2.5f * y / h;
  float zr = 0.0f, zi = 0.0f;
  int k = 0;
  while (k < maxit && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  iters[y * w + x] = k;
}
