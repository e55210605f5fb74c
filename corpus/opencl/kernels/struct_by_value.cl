typedef struct { float scale; int offset; float bias; } params_t;
__kernel void struct_by_value(__global const int* in, __global float* out, params_t p) {
  int i = get_global_id(0);
  out[i] = (in[i] + p.offset) * p.scale + p.bias;
}
