__kernel void math_exp_log(__global const float* x, __global float* e, __global float* lg, __global float* l2) {
  int i = get_global_id(0);
  e[i] = exp(x[i]);
  lg[i] = log(fabs(x[i]) + 0.5f);
  l2[i] = exp2(x[i] * 0.5f) + log2(fabs(x[i]) + 1.0f);
}
